import { errorStatus, type ErrorCode } from '@cellcloud/contracts';

/**
 * The one error type services throw (neutral module: services, jobs and the HTTP layer import it). `code` selects the HTTP status (contracts/errors.ts) and
 * the translated message; `messageKey` overrides the message (e.g. a specific validation rule);
 * `params` fill the message placeholders.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, unknown> = {},
    readonly messageKey?: string,
  ) {
    super(`${code}${messageKey ? `:${messageKey}` : ''}`);
    this.status = errorStatus[code];
  }
}

export const notFound = () => new AppError('NOT_FOUND');
export const forbidden = () => new AppError('FORBIDDEN');
