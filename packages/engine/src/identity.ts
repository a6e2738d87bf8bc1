import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The engine's identity, derived from content so that no one has to remember to bump a number
 * (issue 32; docs/reproducibility.md). It is recorded in every result (analysis manifest and h5ad
 * `uns`, task outputs) and is part of every result-cache key, so any change to the numerics —
 * an engine, formats or task-engine source file, a dependency's installed version, the Node
 * runtime, a reference resource — gives new results instead of a cached old one.
 *
 * Inputs of the hash:
 *  - sources: every file under packages/engine/src and packages/formats/src, and the engine parts
 *    of packages/tasks/src (files under an `engine/` folder, and the generated engine registry)
 *    once that package exists; Markdown files are left out (documentation, not numerics); and the
 *    modules of packages/contracts those sources import (constants such as LIMITS, schemas),
 *    followed through their own relative imports;
 *  - dependencies: the exact installed version of every third-party package these packages depend
 *    on, transitively (scran.js and its WebAssembly builds, h5wasm, fflate …), read from the
 *    installed package.json files (what really runs, not the lockfile's wish);
 *  - the Node.js version (its V8 implements Math.exp/log/pow the numerics call);
 *  - resources: the content of every file in the reference-resources folder
 *    (CELLCLOUD_RESOURCES_DIR, default `../shared/data` beside the checkout): a manifest of
 *    relative path + sha256 per file. The whole folder, not only the files one computation reads,
 *    so the key is known before the computation runs (a cache lookup happens before it).
 *
 * `id` = `<package.json version>+<first 12 hex digits>` is what results carry; `version` alone is
 * for display. Computed once per process and resources folder, on first use (not at import).
 */
export interface EngineIdentity {
  /** Human version from packages/engine/package.json (display only). */
  version: string;
  /** `${version}+${hash.slice(0, 12)}`: recorded in results and cache keys. */
  id: string;
  /** sha256 (hex) over sources, dependencies, Node version and resources. */
  hash: string;
  /** sha256 over the source files alone, and how many there were. */
  sources: { hash: string; files: number };
  /** name@version of every third-party package in the dependency closure, sorted. */
  dependencies: string[];
  node: string;
  /** sha256 over the resources manifest (null: no resources folder), and its file count. */
  resources: { dir: string; hash: string; files: number } | null;
  /** Milliseconds the computation took. */
  ms: number;
}

export interface IdentityInputs {
  /** Folders whose files are hashed, each with a filter on the path relative to it. */
  sources: { dir: string; include?: (rel: string) => boolean }[];
  /** Package folders (with a package.json) whose third-party dependencies are followed. */
  packages: string[];
  /**
   * Our packages of which only the modules the sources import count (and what those import in
   * turn): contracts, whose constants and schemas the engine computes with, without every API
   * schema change invalidating the cache.
   */
  linked?: { name: string; dir: string }[];
  /** The human version shown (the engine's package.json version). */
  version: string;
  resourcesDir?: string | null;
  node?: string;
}

const CHECKOUT = path.resolve(import.meta.dirname, '../../..');

/** The files of the running engine: the inputs `engineIdentity()` hashes. */
export function defaultIdentityInputs(resourcesDir: string | null = defaultResources()): IdentityInputs {
  const tasks = path.join(CHECKOUT, 'packages/tasks');
  const withTasks = existsSync(path.join(tasks, 'src'));
  return {
    sources: [
      { dir: path.join(CHECKOUT, 'packages/engine/src') },
      { dir: path.join(CHECKOUT, 'packages/formats/src') },
      ...(withTasks ? [{ dir: path.join(tasks, 'src'), include: isTaskEngineFile }] : []),
    ],
    packages: [
      path.join(CHECKOUT, 'packages/engine'),
      path.join(CHECKOUT, 'packages/formats'),
      ...(withTasks ? [tasks] : []),
    ],
    linked: [{ name: '@cellcloud/contracts', dir: path.join(CHECKOUT, 'packages/contracts') }],
    version: readJson(path.join(CHECKOUT, 'packages/engine/package.json')).version as string,
    resourcesDir,
  };
}

/** A task folder's compute: `<task>/engine/**`, `_shared/engine/**`, the generated engine registry. */
export function isTaskEngineFile(rel: string): boolean {
  const parts = rel.split(/[\\/]/);
  return parts.slice(0, -1).includes('engine') || /^registry\.engine\.[cm]?[jt]s$/.test(parts.at(-1)!);
}

/** CELLCLOUD_RESOURCES_DIR, else `<checkout>/../shared/data` (as cli/node-resources.ts); null if absent. */
function defaultResources(): string | null {
  const dir = process.env.CELLCLOUD_RESOURCES_DIR
    ? path.resolve(process.env.CELLCLOUD_RESOURCES_DIR)
    : path.resolve(CHECKOUT, '../shared/data');
  return existsSync(dir) ? dir : null;
}

const memo = new Map<string, EngineIdentity>();

/**
 * The running engine's identity for a resources folder (default: the engine's own), computed once
 * per process and folder.
 */
export function engineIdentity(resourcesDir?: string | null): EngineIdentity {
  const dir = resourcesDir === undefined ? defaultResources() : resourcesDir && path.resolve(resourcesDir);
  const key = dir ?? '';
  let id = memo.get(key);
  if (!id) {
    id = computeEngineIdentity(defaultIdentityInputs(dir && existsSync(dir) ? dir : null));
    memo.set(key, id);
  }
  return id;
}

/** The identity of an explicit set of inputs (tests point it at a copy of the tree). */
export function computeEngineIdentity(inputs: IdentityInputs): EngineIdentity {
  const t0 = performance.now();
  const src = createHash('sha256');
  let files = 0;
  const texts: string[] = [];
  for (const s of inputs.sources) {
    for (const rel of listFiles(s.dir)) {
      if (rel.endsWith('.md') || (s.include && !s.include(rel))) continue;
      const bytes = readFileSync(path.join(s.dir, rel));
      src.update(`${path.basename(s.dir)}/${rel}\0`).update(createHash('sha256').update(bytes).digest('hex'));
      if (/\.[cm]?[jt]sx?$/.test(rel)) texts.push(bytes.toString('utf8'));
      files++;
    }
  }
  for (const l of inputs.linked ?? []) {
    for (const file of importedModules(l, texts)) {
      src.update(`${l.name}/${path.relative(l.dir, file)}\0`).update(sha256(file));
      files++;
    }
  }
  const sources = { hash: src.digest('hex'), files };
  const dependencies = dependencyClosure(inputs.packages);
  const node = inputs.node ?? process.versions.node;
  let resources: EngineIdentity['resources'] = null;
  if (inputs.resourcesDir) {
    const r = createHash('sha256');
    const list = listFiles(inputs.resourcesDir);
    for (const rel of list) r.update(`${rel}\0`).update(sha256OrMark(path.join(inputs.resourcesDir, rel)));
    resources = { dir: inputs.resourcesDir, hash: r.digest('hex'), files: list.length };
  }
  const hash = createHash('sha256')
    .update(JSON.stringify({ sources: sources.hash, dependencies, node, resources: resources?.hash ?? null }))
    .digest('hex');
  return {
    version: inputs.version,
    id: `${inputs.version}+${hash.slice(0, 12)}`,
    hash,
    sources,
    dependencies,
    node,
    resources,
    ms: performance.now() - t0,
  };
}

const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]/g;

/**
 * The files of package `l` that `texts` import (through its package.json `exports`, `*` patterns
 * included), and the files those import relatively, transitively; sorted.
 */
function importedModules(l: { name: string; dir: string }, texts: string[]): string[] {
  const exports = (readJson(path.join(l.dir, 'package.json')).exports ?? {}) as Record<string, string>;
  const viaExports = (spec: string): string | undefined => {
    const sub = spec === l.name ? '.' : `./${spec.slice(l.name.length + 1)}`;
    if (exports[sub]) return path.join(l.dir, exports[sub]);
    for (const [k, v] of Object.entries(exports)) {
      const star = k.indexOf('*');
      if (star < 0 || !sub.startsWith(k.slice(0, star)) || !sub.endsWith(k.slice(star + 1))) continue;
      return path.join(l.dir, v.replace('*', sub.slice(star, sub.length - (k.length - star - 1))));
    }
    return undefined;
  };
  const relative = (from: string, spec: string): string | undefined =>
    [spec, `${spec}.ts`, `${spec}.tsx`, `${spec}/index.ts`]
      .map((c) => path.resolve(path.dirname(from), c))
      .find((c) => existsSync(c) && statSync(c).isFile());
  const found = new Set<string>();
  const queue: string[] = [];
  const add = (file: string | undefined) => {
    if (file && existsSync(file) && !found.has(file)) {
      found.add(file);
      queue.push(file);
    }
  };
  for (const text of texts)
    for (const m of text.matchAll(SPECIFIER))
      if (m[1] === l.name || m[1]!.startsWith(`${l.name}/`)) add(viaExports(m[1]!));
  while (queue.length) {
    const file = queue.pop()!;
    for (const m of readFileSync(file, 'utf8').matchAll(SPECIFIER))
      if (m[1]!.startsWith('.')) add(relative(file, m[1]!));
  }
  return [...found].sort();
}

/** A resource the process cannot read counts by name only (an analysis never fails on the identity). */
function sha256OrMark(file: string): string {
  try {
    return sha256(file);
  } catch (e) {
    return `unreadable:${(e as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/**
 * Files under `dir`, relative, sorted (POSIX separators). Symbolic links are followed (mounted
 * resource folders are often links), each real folder walked once; unreadable entries are skipped.
 */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (rel: string) => {
    const abs = path.join(dir, rel);
    let real: string;
    try {
      real = realpathSync(abs);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    // in name order, so which route to a folder linked twice counts is the same everywhere
    const entries = readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      let kind: 'dir' | 'file' | null = e.isDirectory() ? 'dir' : e.isFile() ? 'file' : null;
      if (e.isSymbolicLink()) {
        try {
          const st = statSync(path.join(dir, r));
          kind = st.isDirectory() ? 'dir' : st.isFile() ? 'file' : null;
        } catch {
          kind = null; // a dangling link
        }
      }
      if (kind === 'dir') walk(r);
      else if (kind === 'file') out.push(r);
    }
  };
  if (existsSync(dir) && statSync(dir).isDirectory()) walk('');
  return out.sort();
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** The installed package folder `name` resolves to from `from` (Node's node_modules lookup). */
function resolvePackage(name: string, from: string): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

/** name@version of the third-party packages reachable from `packages` (our own @cellcloud/* are sources). */
function dependencyClosure(packages: string[]): string[] {
  const seen = new Set<string>();
  const out = new Set<string>();
  const visit = (pkgDir: string) => {
    const real = path.resolve(pkgDir);
    if (seen.has(real)) return;
    seen.add(real);
    const pkg = readJson(path.join(real, 'package.json'));
    const deps = { ...(pkg.dependencies as Record<string, string>), ...(pkg.optionalDependencies as object) };
    for (const name of Object.keys(deps).sort()) {
      if (name.startsWith('@cellcloud/')) continue;
      const dir = resolvePackage(name, real);
      if (!dir) continue; // an optional dependency not installed on this platform
      out.add(`${name}@${readJson(path.join(dir, 'package.json')).version as string}`);
      visit(dir);
    }
  };
  for (const p of packages) visit(p);
  return [...out].sort();
}
