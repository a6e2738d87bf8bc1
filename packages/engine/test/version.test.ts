import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENGINE_VERSION } from '../src/version';

/**
 * The server's result cache keys on the engine's package.json version (services never import the
 * engine) while results record ENGINE_VERSION: the two must be one number, bumped together whenever
 * results change, so an old cached result is never served for a changed engine.
 */
describe('engine version', () => {
  it('is the same in version.ts and package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(ENGINE_VERSION).toBe(pkg.version);
  });
});
