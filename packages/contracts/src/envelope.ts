import { z } from 'zod';

/**
 * Every JSON response of the API uses this envelope (docs/product/api.md#base-path-and-envelope, docs/product/errors.md):
 * `code` is 200 on success, otherwise the HTTP status or an application error code,
 * `msg` is a human message in the request's language, `data` the payload.
 */
export const envelope = <T extends z.ZodTypeAny>(data: T) =>
  z.object({
    code: z.number().int(),
    msg: z.string(),
    data,
  });

export type Envelope<T> = { code: number; msg: string; data: T };

/** Paged list payload used by every list endpoint. */
export const paged = <T extends z.ZodTypeAny>(row: T) =>
  z.object({
    total: z.number().int().nonnegative(),
    rows: z.array(row),
  });

export type Paged<T> = { total: number; rows: T[] };

export const pageQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(10),
});
export type PageQuery = z.infer<typeof pageQuery>;
