/**
 * Option checks shared by the methods: unknown keys are rejected (like a strict zod schema) and
 * numeric ranges are checked, with messages that name the method, the option and what to do.
 */
export function rejectUnknownOptions(
  method: string,
  opts: object | undefined,
  allowed: readonly string[],
): void {
  if (!opts) return;
  for (const key of Object.keys(opts)) {
    if (!allowed.includes(key)) {
      throw new Error(`${method}: unknown option '${key}'; allowed options are ${allowed.join(', ')}`);
    }
  }
}

export function checkRange(
  method: string,
  name: string,
  value: number,
  min: number,
  max: number,
  integer = false,
): number {
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    const kind = integer ? 'an integer' : 'a number';
    throw new Error(`${method}: option '${name}' must be ${kind} in [${min}, ${max}], got ${value}`);
  }
  return value;
}

export function checkLength(method: string, name: string, actual: number, expected: number): void {
  if (actual !== expected) {
    throw new Error(
      `${method}: '${name}' has length ${actual} but ${expected} was expected; pass one value per cell`,
    );
  }
}

/** Map arbitrary integer labels to 0..n-1 in order of first appearance. */
export function denseLabels(labels: ArrayLike<number>): { codes: Int32Array; count: number } {
  const map = new Map<number, number>();
  const codes = new Int32Array(labels.length);
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i] as number;
    let c = map.get(l);
    if (c === undefined) {
      c = map.size;
      map.set(l, c);
    }
    codes[i] = c;
  }
  return { codes, count: map.size };
}
