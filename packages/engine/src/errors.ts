/**
 * Typed engine errors. `code` is stable (the server maps it to a translated message, docs/product/validation.md);
 * `params` carries the values the message needs; `message` is English for logs and the CLI.
 */
export const engineErrorCodes = [
  'NO_SAMPLES',
  'TOO_FEW_CELLS',
  'TOO_MANY_CELLS',
  'MIXED_SPECIES',
  'DUPLICATE_SAMPLE_NAME',
  'INVALID_PARAMS',
  'NO_CELLS_AFTER_FILTER',
  'CELL_CYCLE_SPECIES',
  'BATCH_KEY_MISSING',
  'GROUP_TOO_SMALL',
  'MEMORY_BUDGET',
] as const;
export type EngineErrorCode = (typeof engineErrorCodes)[number];

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly params: Record<string, string | number>;

  constructor(code: EngineErrorCode, message: string, params: Record<string, string | number> = {}) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    this.params = params;
  }
}

export function isEngineError(e: unknown): e is EngineError {
  return e instanceof EngineError;
}
