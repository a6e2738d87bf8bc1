import {
  appendFileSync,
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  computeEngineIdentity,
  defaultIdentityInputs,
  engineIdentity,
  isTaskEngineFile,
  type IdentityInputs,
} from '../src/identity';
import { engineVersion } from '../src/version';

const engineDir = path.resolve(import.meta.dirname, '..');

/**
 * Engine identity from content (issue 32, docs/reproducibility.md): a copy of the engine's own
 * tree is hashed, then one file, a dependency's installed version, the Node version or a resource
 * changes — each gives another identity; documentation does not.
 */
describe('engine identity', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'engine-identity-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // a copy of packages/engine/src and package.json, a fake installed dependency and resources
  cpSync(path.join(engineDir, 'src'), path.join(root, 'engine/src'), { recursive: true });
  writeFileSync(
    path.join(root, 'engine/package.json'),
    JSON.stringify({ name: '@cellcloud/engine', version: '9.9.9', dependencies: { 'fake-wasm': '^1.0.0' } }),
  );
  const dep = path.join(root, 'node_modules/fake-wasm');
  mkdirSync(dep, { recursive: true });
  writeFileSync(path.join(dep, 'package.json'), JSON.stringify({ name: 'fake-wasm', version: '1.0.0' }));
  mkdirSync(path.join(root, 'resources/gene_sets'), { recursive: true });
  writeFileSync(path.join(root, 'resources/gene_sets/h.gmt'), 'SET\tna\tCD3E\tCD4\n');
  // a contracts package: the engine imports params (which imports ./limits); api is not imported
  const contracts = path.join(root, 'contracts');
  mkdirSync(path.join(contracts, 'src/tasks'), { recursive: true });
  writeFileSync(
    path.join(contracts, 'package.json'),
    JSON.stringify({
      exports: { './params': './src/params.ts', './api': './src/api.ts', './tasks/*': './src/tasks/*.ts' },
    }),
  );
  writeFileSync(
    path.join(contracts, 'src/params.ts'),
    "import { LIMIT } from './limits';\nexport const P = LIMIT;\n",
  );
  writeFileSync(path.join(contracts, 'src/limits.ts'), 'export const LIMIT = 0.25;\n');
  writeFileSync(path.join(contracts, 'src/api.ts'), 'export const ROUTE = "/a";\n');
  writeFileSync(path.join(contracts, 'src/tasks/cnv.ts'), 'export const WINDOW = 101;\n');
  writeFileSync(
    path.join(root, 'engine/src/uses-contracts.ts'),
    "import { P } from '@cellcloud/fake-contracts/params';\nimport type { W } from '@cellcloud/fake-contracts/tasks/cnv';\nexport const q = P;\n",
  );
  const inputs: IdentityInputs = {
    sources: [{ dir: path.join(root, 'engine/src') }],
    packages: [path.join(root, 'engine')],
    linked: [{ name: '@cellcloud/fake-contracts', dir: contracts }],
    version: '9.9.9',
    resourcesDir: path.join(root, 'resources'),
    node: '24.0.0',
  };
  const base = computeEngineIdentity(inputs);

  it('is the human version plus a content hash, stable while nothing changes', () => {
    expect(base.id).toMatch(/^9\.9\.9\+[0-9a-f]{12}$/);
    expect(base.dependencies).toEqual(['fake-wasm@1.0.0']);
    expect(base.resources?.files).toBe(1);
    expect(base.sources.files).toBeGreaterThan(100);
    expect(computeEngineIdentity(inputs).id).toBe(base.id);
  });

  it('changes when an engine source file changes, not when its documentation does', () => {
    const file = path.join(root, 'engine/src/methods/louvain.ts');
    appendFileSync(file, '\n// a changed line\n');
    const changed = computeEngineIdentity(inputs);
    expect(changed.id).not.toBe(base.id);
    expect(changed.sources.hash).not.toBe(base.sources.hash);
    cpSync(path.join(engineDir, 'src/methods/louvain.ts'), file);
    expect(computeEngineIdentity(inputs).id).toBe(base.id);
    appendFileSync(path.join(root, 'engine/src/methods/README.md'), '\nA note.\n');
    expect(computeEngineIdentity(inputs).id).toBe(base.id);
    // a new source file counts too
    writeFileSync(path.join(root, 'engine/src/stats/extra.ts'), 'export const k = 1;\n');
    expect(computeEngineIdentity(inputs).id).not.toBe(base.id);
    rmSync(path.join(root, 'engine/src/stats/extra.ts'));
  });

  it("changes with a dependency's installed version, the Node version and the resources", () => {
    writeFileSync(path.join(dep, 'package.json'), JSON.stringify({ name: 'fake-wasm', version: '1.0.1' }));
    expect(computeEngineIdentity(inputs).id).not.toBe(base.id);
    writeFileSync(path.join(dep, 'package.json'), JSON.stringify({ name: 'fake-wasm', version: '1.0.0' }));
    expect(computeEngineIdentity({ ...inputs, node: '24.0.1' }).id).not.toBe(base.id);
    writeFileSync(path.join(root, 'resources/gene_sets/h.gmt'), 'SET\tna\tCD3E\tCD8A\n');
    expect(computeEngineIdentity(inputs).id).not.toBe(base.id);
    expect(computeEngineIdentity({ ...inputs, resourcesDir: null }).id).not.toBe(base.id);
    writeFileSync(path.join(root, 'resources/gene_sets/h.gmt'), 'SET\tna\tCD3E\tCD4\n');
    expect(computeEngineIdentity(inputs).id).toBe(base.id);
  });

  it('counts the contracts modules the engine imports (and theirs), not the others', () => {
    writeFileSync(path.join(contracts, 'src/limits.ts'), 'export const LIMIT = 0.3;\n');
    expect(computeEngineIdentity(inputs).id).not.toBe(base.id);
    writeFileSync(path.join(contracts, 'src/limits.ts'), 'export const LIMIT = 0.25;\n');
    writeFileSync(path.join(contracts, 'src/tasks/cnv.ts'), 'export const WINDOW = 51;\n');
    expect(computeEngineIdentity(inputs).id).not.toBe(base.id);
    writeFileSync(path.join(contracts, 'src/tasks/cnv.ts'), 'export const WINDOW = 101;\n');
    expect(computeEngineIdentity(inputs).id).toBe(base.id);
    writeFileSync(path.join(contracts, 'src/api.ts'), 'export const ROUTE = "/b";\n');
    expect(computeEngineIdentity(inputs).id).toBe(base.id);
  });

  it('follows linked resource folders and files; an unreadable resource does not throw', () => {
    const linked = path.join(root, 'linked-resources');
    mkdirSync(linked);
    symlinkSync(path.join(root, 'resources/gene_sets'), path.join(linked, 'gene_sets'));
    const viaLink = computeEngineIdentity({ ...inputs, resourcesDir: linked });
    expect(viaLink.resources?.files).toBe(1);
    expect(viaLink.resources?.hash).toBe(base.resources?.hash);
    symlinkSync(path.join(linked, 'gene_sets'), path.join(linked, 'loop')); // a second route to one folder
    symlinkSync(path.join(root, 'missing'), path.join(linked, 'dangling'));
    expect(computeEngineIdentity({ ...inputs, resourcesDir: linked }).resources?.files).toBe(1);
    if (process.getuid?.() !== 0) {
      const locked = path.join(root, 'resources/locked.txt');
      writeFileSync(locked, 'x');
      chmodSync(locked, 0);
      expect(() => computeEngineIdentity(inputs)).not.toThrow();
      rmSync(locked);
    }
  });

  it('hashes only the engine parts of task folders', () => {
    expect(isTaskEngineFile('cnv/engine/index.ts')).toBe(true);
    expect(isTaskEngineFile('_shared/engine/groups.ts')).toBe(true);
    expect(isTaskEngineFile('generated/registry.engine.ts')).toBe(true);
    expect(isTaskEngineFile('cnv/web/CnvView.tsx')).toBe(false);
    expect(isTaskEngineFile('cnv/contract.ts')).toBe(false);
  });

  it('the running engine: results carry its id; scran.js is among its dependencies', () => {
    const me = engineIdentity();
    expect(engineVersion()).toBe(me.id);
    expect(me.id.startsWith(`${defaultIdentityInputs(null).version}+`)).toBe(true);
    expect(me.dependencies.some((d) => d.startsWith('scran.js@'))).toBe(true);
    expect(me.dependencies.some((d) => d.startsWith('h5wasm@'))).toBe(true);
    expect(engineIdentity()).toBe(me); // once per process
  });
});
