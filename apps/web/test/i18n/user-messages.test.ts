import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Issue 31: no message a user can meet names an internal key or shows `[object …]`. Every
 * message of the web catalogues: not itself an i18n key, no `[object`, no raw `key=value` dump,
 * and the zh-CN text interpolates exactly the en-US placeholders (a placeholder only one side
 * has is shown raw as `{{name}}` or drops the value).
 */
const locales = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/i18n/locales');
type Tree = { [k: string]: string | Tree };
const flatten = (t: Tree, pre = ''): [string, string][] =>
  Object.entries(t).flatMap(([k, v]) =>
    typeof v === 'string' ? [[`${pre}${k}`, v]] : flatten(v, `${pre}${k}.`),
  );
const load = (loc: string) =>
  new Map(
    readdirSync(path.join(locales, loc))
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) =>
        flatten(JSON.parse(readFileSync(path.join(locales, loc, f), 'utf8')) as Tree).map(
          ([k, v]) => [`${f.replace(/\.json$/, '')}:${k}`, v] as const,
        ),
      ),
  );
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!).sort();
/** A whole message that is an i18n-key-like token (`errors.validation.min`, `tasks:cnv.reference`). */
const KEY_LIKE = /^[a-z][A-Za-z0-9]*([.:][A-Za-z0-9_]+){2,}$/;

describe('web message catalogues (issue 31)', () => {
  const en = load('en-US');
  const zh = load('zh-CN');
  it('has messages to check', () => {
    expect(en.size).toBeGreaterThan(500);
  });
  for (const [loc, cat] of [
    ['en-US', en],
    ['zh-CN', zh],
  ] as const) {
    it(`${loc}: no message is a key, shows [object …] or a key=value dump`, () => {
      const bad = [...cat].filter(
        ([, v]) => KEY_LIKE.test(v.trim()) || v.includes('[object') || /\b[a-z]\w*=\{\{/.test(v),
      );
      expect(bad).toEqual([]);
    });
  }
  it('zh-CN interpolates exactly the en-US placeholders', () => {
    const bad = [...en]
      .filter(([k]) => zh.has(k))
      .filter(([k, v]) => placeholders(v).join() !== placeholders(zh.get(k)!).join())
      .map(([k, v]) => `${k}: en {${placeholders(v).join()}} zh {${placeholders(zh.get(k)!).join()}}`);
    expect(bad).toEqual([]);
  });
});
