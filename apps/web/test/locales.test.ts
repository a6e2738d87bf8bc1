import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Locale completeness (docs/conventions.md): en-US is the key source, zh-CN has exactly the
 * same keys, no value is empty, and every key is used by the code.
 *
 * "Used" means: the code contains the key as a string literal in a file that uses its namespace
 * (`useTranslation('<ns>')`, `ns="<ns>"`), or `'<ns>:<key>'` anywhere; a template literal such
 * as `tabs.${k}` counts for every key it can produce. Keys built in packages/contracts
 * (`validation.*` messages, `menu.${permission}` names) count for those namespaces.
 */
const webRoot = path.resolve(__dirname, '..');
const localesDir = path.join(webRoot, 'src/i18n/locales');
const contractsDir = path.resolve(webRoot, '../../packages/contracts/src');

type Tree = { [k: string]: string | Tree };
const flatten = (tree: Tree, prefix = ''): Map<string, string> => {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
};
const load = (locale: string) =>
  new Map(
    readdirSync(path.join(localesDir, locale))
      .filter((f) => f.endsWith('.json'))
      .map((f) => [
        f.replace(/\.json$/, ''),
        flatten(JSON.parse(readFileSync(path.join(localesDir, locale, f), 'utf8')) as Tree),
      ]),
  );

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    if (statSync(p).isDirectory()) return walk(p);
    return /\.(ts|tsx)$/.test(f) ? [p] : [];
  });

// The `tasks` namespace also holds every task folder's messages/<locale>.json under the task's
// camelCase key (packages/tasks, loaded by src/i18n); their `failures` are rendered by the server.
const tasksDir = path.resolve(webRoot, '../../packages/tasks/src');
const taskFolders = readdirSync(tasksDir).filter((d) => !d.startsWith('_') && d !== 'generated');
const taskKey = (folder: string) => folder.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const withTaskMessages = (locale: string, all: Map<string, Map<string, string>>) => {
  const tasks = all.get('tasks') ?? new Map<string, string>();
  for (const folder of taskFolders) {
    const file = path.join(tasksDir, folder, 'messages', `${locale}.json`);
    for (const [k, v] of flatten(JSON.parse(readFileSync(file, 'utf8')) as Tree, taskKey(folder)))
      tasks.set(k, v);
  }
  all.set('tasks', tasks);
  return all;
};
const en = withTaskMessages('en-US', load('en-US'));
const zh = withTaskMessages('zh-CN', load('zh-CN'));
const namespaces = [...en.keys()];

interface Source {
  file: string;
  /** Plain `t('key')` calls (no namespace prefix, no template). */
  calls: string[];
  namespaces: Set<string>;
  literals: Set<string>;
  patterns: RegExp[];
}

/** Source text without comments (a `//` after `:` is kept: it is a URL, not a comment). */
const stripComments = (src: string) =>
  src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

function scan(file: string, forceNs?: string[]): Source {
  const text = readFileSync(file, 'utf8');
  const ns = new Set<string>(forceNs ?? []);
  for (const m of text.matchAll(/useTranslation\(\s*(\[[^\]]*\]|'[^']*'|"[^"]*")/g)) {
    for (const n of (m[1] ?? '').matchAll(/['"]([^'"]+)['"]/g)) ns.add(n[1]!);
  }
  for (const m of text.matchAll(/\bns=["']([^"']+)["']/g)) ns.add(m[1]!);
  const literals = new Set<string>();
  for (const m of text.matchAll(/'([^'\n]+)'|"([^"\n]+)"/g)) literals.add((m[1] ?? m[2])!);
  const patterns: RegExp[] = [];
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    const tpl = m[1]!;
    if (!tpl.includes('${')) {
      literals.add(tpl);
      continue;
    }
    const re = tpl
      .split(/\$\{[^}]*\}/)
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[A-Za-z0-9_]+');
    patterns.push(new RegExp(`^${re}$`));
  }
  const calls = [...stripComments(text).matchAll(/\bt\(\s*'([^'\n:]+)'/g)].map((m) => m[1]!);
  return { file, calls, namespaces: ns, literals, patterns };
}

/** A task folder's file: `tasks` namespace; its keys may be relative to the task's key (figure labels). */
const scanTaskFile = (file: string): Source => {
  const folder = path.relative(tasksDir, file).split(path.sep)[0]!;
  const src = scan(file, ['tasks']);
  if (!taskFolders.includes(folder)) return src;
  const own = (k: string) =>
    [...src.namespaces].some((ns) => en.get(ns)?.has(k)) ? k : `${taskKey(folder)}.${k}`;
  for (const lit of [...src.literals]) src.literals.add(own(lit));
  return { ...src, calls: src.calls.map(own) };
};
const webSources = [
  ...walk(path.join(webRoot, 'src')).map((f) => scan(f)),
  ...walk(tasksDir).map(scanTaskFile),
];
// Contracts keys look like `validation.password.rule` / `menu.${permission}`: namespace.key
const contractSources = walk(contractsDir).map((f) => scan(f));

function isUsed(ns: string, key: string): boolean {
  if (ns === 'tasks' && /^[A-Za-z0-9]+\.failures\./.test(key)) return true;
  const full = `${ns}:${key}`;
  for (const s of webSources) {
    if (s.literals.has(full) || s.patterns.some((p) => p.test(full))) return true;
    if (s.namespaces.has(ns) && (s.literals.has(key) || s.patterns.some((p) => p.test(key)))) return true;
  }
  const dotted = `${ns}.${key}`;
  return contractSources.some((s) => s.literals.has(dotted) || s.patterns.some((p) => p.test(dotted)));
}

describe('locales', () => {
  it('has the same namespaces in both locales', () => {
    expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
  });

  for (const ns of namespaces) {
    it(`${ns}: zh-CN has exactly the en-US keys, none empty`, () => {
      const enKeys = [...(en.get(ns) ?? new Map()).keys()].sort();
      const zhMap = zh.get(ns) ?? new Map<string, string>();
      const missing = enKeys.filter((k) => !zhMap.has(k));
      const extra = [...zhMap.keys()].filter((k) => !en.get(ns)?.has(k));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
      const empty = [...(en.get(ns) ?? new Map()).entries(), ...zhMap.entries()]
        .filter(([, v]) => !v.trim())
        .map(([k]) => k);
      expect(empty).toEqual([]);
    });

    it(`${ns}: every key is used by the code`, () => {
      const unused = [...(en.get(ns) ?? new Map()).keys()].filter((k) => !isUsed(ns, k));
      expect(unused).toEqual([]);
    });
  }

  it('every `<ns>:<key>` literal in the code exists in en-US', () => {
    const missing: string[] = [];
    for (const s of webSources) {
      for (const lit of s.literals) {
        const m = /^([a-z]+):([A-Za-z0-9_.]+)$/.exec(lit);
        if (!m || !en.has(m[1]!)) continue;
        if (!en.get(m[1]!)!.has(m[2]!)) missing.push(lit);
      }
    }
    expect(missing).toEqual([]);
  });

  it("every plain t('key') exists in one of the namespaces its file uses", () => {
    const missing: string[] = [];
    for (const s of webSources) {
      if (s.namespaces.size === 0) continue; // `t` came from elsewhere (a parameter)
      for (const key of s.calls) {
        if (![...s.namespaces].some((ns) => en.get(ns)?.has(key))) {
          missing.push(`${path.relative(webRoot, s.file)}: ${key}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('every validation message key of the contracts exists in en-US', () => {
    const missing: string[] = [];
    for (const s of contractSources) {
      for (const lit of s.literals) {
        const m = /^validation\.([A-Za-z0-9_.]+)$/.exec(lit);
        if (m && !en.get('validation')?.has(m[1]!)) missing.push(lit);
      }
    }
    expect(missing).toEqual([]);
  });
});
