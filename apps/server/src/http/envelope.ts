import { envelope } from '@cellcloud/contracts';
import type { z } from 'zod';

/** Wrap a payload in the `{ code, msg, data }` envelope. */
export function ok<T>(data: T, msg = 'success') {
  return { code: 200, msg, data };
}

/** Response schema map for a route whose success payload is `data`. */
export function okSchema<T extends z.ZodTypeAny>(data: T) {
  return { 200: envelope(data) };
}
