import { describe, expect, it } from 'vitest';
import { remainingValidity } from '../../src/features/downloads/remainingValidity';

const H = 3_600_000;
const now = Date.parse('2026-11-29T08:00:00Z');
const at = (ms: number) => new Date(now + ms).toISOString();

describe('remaining validity of an approved download (issue 31: "6 days left" right after a 7-day approval)', () => {
  it('a 7-day link seconds after approval has 7 days left', () => {
    expect(remainingValidity(at(7 * 24 * H - 5_000), now)).toEqual({ days: 7 });
  });
  it('rounds partial days up, counts the last day in hours, never below zero', () => {
    expect(remainingValidity(at(6 * 24 * H + H), now)).toEqual({ days: 7 });
    expect(remainingValidity(at(2 * 24 * H), now)).toEqual({ days: 2 });
    expect(remainingValidity(at(24 * H), now)).toEqual({ hours: 24 });
    expect(remainingValidity(at(90 * 60_000), now)).toEqual({ hours: 2 });
    expect(remainingValidity(at(-H), now)).toEqual({ hours: 0 });
  });
});
