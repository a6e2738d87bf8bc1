import { expect } from 'vitest';
import { FormatError } from '../src/errors';

/** Await a promise that must reject with a FormatError of the given code. */
export async function expectCode(p: Promise<unknown>, code: string): Promise<FormatError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(FormatError);
  expect((e as FormatError).code).toBe(code);
  return e as FormatError;
}
