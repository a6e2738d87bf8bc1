import type { z } from 'zod';
import { LIMITS } from '@cellcloud/contracts/constants';
import { getSession } from './session';
import { getErrorPresenter } from './errorPresenter';
import { currentLocale } from '../i18n';

/** A failed API call: HTTP status (0 = network), envelope code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions<S extends z.ZodType> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Query parameters; arrays are repeated (`a=1&a=2`, docs/product/api.md#request-kinds); undefined/null are left out. */
  query?: Record<string, unknown>;
  /** JSON body, or a urlencoded form when `form` is true. */
  body?: unknown;
  form?: boolean;
  /** Validates `data` of the envelope. */
  schema?: S;
  /**
   * Statuses the caller handles itself (no global docs/product/errors.md#status-handling behaviour; the ApiError is thrown).
   * Public calls pass [400, 401, 403, 404, 409, 429] to show their messages inline.
   */
  handle?: number[];
  signal?: AbortSignal;
}

export function buildUrl(path: string, query?: RequestOptions<z.ZodType>['query']): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) v.forEach((x: unknown) => qs.append(k, String(x)));
    else qs.append(k, String(v));
  }
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

function encodeBody(body: unknown, form: boolean | undefined): { body?: BodyInit; type?: string } {
  if (body === undefined) return {};
  if (!form) return { body: JSON.stringify(body), type: 'application/json' };
  const f = new URLSearchParams();
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (v !== undefined && v !== null) f.append(k, String(v));
  }
  return { body: f, type: 'application/x-www-form-urlencoded' };
}

/** Applies the docs/product/errors.md#status-handling behaviour for a failure nobody handles locally. */
export function presentError(err: ApiError): void {
  const p = getErrorPresenter();
  if (!p) {
    console.warn(`API error ${err.status}: ${err.message}`);
    return;
  }
  if (err.status === 0 || err.status === 500 || err.status === 503 || err.status > 500) p.maintenance();
  else if (err.status === 401) p.expired();
  else if (err.status === 403) p.forbidden();
  else if (err.status === 404) p.notFound();
  else p.serverMessage(err.message);
}

/**
 * The only fetch of the app. Adds `access-token` (stored user info) and `x-lang`, times out
 * after 600 000 ms, unwraps the `{ code, msg, data }` envelope and validates `data`.
 */
export async function request<S extends z.ZodType = z.ZodUnknown>(
  path: string,
  opts: RequestOptions<S> = {},
): Promise<z.infer<S>> {
  const headers: Record<string, string> = { 'x-lang': currentLocale(), accept: 'application/json' };
  const token = getSession()?.token;
  if (token) headers['access-token'] = token;
  const { body, type } = encodeBody(opts.body, opts.form);
  if (type) headers['content-type'] = type;
  const timeout = AbortSignal.timeout(LIMITS.requestTimeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;

  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), { method: opts.method ?? 'GET', headers, body, signal });
  } catch (e) {
    if (opts.signal?.aborted) throw e;
    const err = new ApiError(0, 0, e instanceof Error ? e.message : String(e));
    if (!opts.handle?.includes(0)) presentError(err);
    throw err;
  }

  type Body = { code?: unknown; msg?: unknown; data?: unknown };
  const payload: Body | null = await res.json().then(
    (b: unknown) => (typeof b === 'object' && b !== null ? (b as Body) : null),
    () => null,
  );
  const code = typeof payload?.code === 'number' ? payload.code : res.status;
  const msg = typeof payload?.msg === 'string' ? payload.msg : res.statusText;
  if (!res.ok || code !== 200) {
    const status = res.ok ? code : res.status;
    const err = new ApiError(status, code, msg);
    if (!opts.handle?.includes(status)) presentError(err);
    throw err;
  }
  if (!opts.schema) return payload?.data as z.infer<S>;
  const parsed = opts.schema.safeParse(payload?.data);
  if (!parsed.success) throw unexpectedAnswer(path, parsed.error.issues[0]?.message ?? '');
  return parsed.data;
}

/** The server answered 200 with data of the wrong shape (a deployment mismatch). */
export function unexpectedAnswer(path: string, detail: string): ApiError {
  const err = new ApiError(502, 502, `Unexpected answer from ${path}: ${detail}`);
  console.error(err.message);
  return err;
}

/** Statuses a public form (login, sign-up, …) shows inline instead of the global behaviour. */
export const FORM_STATUSES = [400, 401, 403, 404, 409, 422, 429];
