import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const files = readdirSync(src).filter((f) => f.endsWith('.ts'));

describe('package boundaries', () => {
  it('only node-sources.ts touches Node built-ins or the process', () => {
    const offenders = files.filter(
      (f) =>
        f !== 'node-sources.ts' &&
        /from 'node:|require\(|\bprocess\./.test(readFileSync(path.join(src, f), 'utf8')),
    );
    expect(offenders).toEqual([]);
    expect(readFileSync(path.join(src, 'index.ts'), 'utf8')).not.toMatch(/from '.\/node-sources'/);
  });

  it('artifacts-decode.ts imports nothing (the browser bundles it alone)', () => {
    expect(readFileSync(path.join(src, 'artifacts-decode.ts'), 'utf8')).not.toMatch(/^\s*import\s/m);
  });
});
