/** Minimal typing of the s3rver test server (the package ships none; it is a Koa app). */
declare module 's3rver' {
  interface KoaLikeContext {
    path: string;
    method: string;
    query: Record<string, string | string[] | undefined>;
    type: string;
    body: unknown;
  }
  type Middleware = (ctx: KoaLikeContext, next: () => Promise<unknown>) => Promise<unknown>;
  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string; configs: string[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    middleware: Middleware[];
    run(): Promise<{ port: number; address: string }>;
    close(): Promise<void>;
  }
}
