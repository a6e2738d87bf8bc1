import { randomUUID } from 'node:crypto';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON Schema documents are walked dynamically
export type Schema = Record<string, any>;

/**
 * A minimal valid-looking value of a JSON schema of the live OpenAPI document `doc` (first enum
 * value, defaults, minimums, every property); `fixed` gives values by property name. Used by the
 * generated authorization matrices (security-authz-matrix, sharing-matrix).
 */
export function schemaSampler(doc: Schema, fixed: Record<string, unknown> = {}) {
  const resolve = (x: Schema | undefined): Schema | undefined => {
    if (!x) return x;
    if (x.$ref)
      return resolve(
        x.$ref
          .split('/')
          .slice(1)
          .reduce((o: Schema, k: string) => o?.[k], doc),
      );
    return x;
  };
  const sample = (raw: Schema | undefined, depth = 0): unknown => {
    const x = resolve(raw);
    if (!x || depth > 8) return undefined;
    if (x.const !== undefined) return x.const;
    if (x.enum) return x.enum[0];
    if (x.default !== undefined) return x.default;
    for (const k of ['anyOf', 'oneOf', 'allOf'])
      if (Array.isArray(x[k]))
        return sample(x[k].find((y: Schema) => resolve(y)?.type !== 'null') ?? x[k][0], depth + 1);
    const type = Array.isArray(x.type) ? x.type.find((t: string) => t !== 'null') : x.type;
    switch (type) {
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries<Schema>(x.properties ?? {})) {
          const value = k in fixed ? fixed[k] : sample(v, depth + 1);
          if (value !== undefined) out[k] = value;
        }
        return out;
      }
      case 'array':
        return Array.from({ length: Math.max(1, x.minItems ?? 1) }, () => sample(x.items, depth + 1));
      case 'integer':
      case 'number':
        return x.minimum ?? (x.exclusiveMinimum !== undefined ? x.exclusiveMinimum + 1 : 1);
      case 'boolean':
        return false;
      case 'string':
        if (x.format === 'uuid') return randomUUID();
        if (x.format === 'email') return 'someone@example.org';
        if (x.format === 'date-time') return new Date().toISOString();
        return 'Sample_1'.padEnd(x.minLength ?? 0, 'x').slice(0, x.maxLength ?? 64);
      default:
        return undefined;
    }
  };
  return sample;
}
