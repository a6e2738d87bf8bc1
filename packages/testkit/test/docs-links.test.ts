import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The docs a source file cites live in the repository (issue 30): product behaviour in
 * docs/product/, methods in docs/methods/ (docs/product/README.md, docs/methods/README.md).
 *  - No source, test or script file cites a section of the product specification or the methods
 *    note the project was given (the word SPEC or METHODS, then the section sign and a number): a
 *    reader who clones the repository does not have them.
 *  - Every `docs/….md` path (with an optional `#anchor`) written in a source file or a Markdown
 *    file, and every relative `.md` link of a Markdown file, names a file that exists, and the
 *    anchor is the GitHub slug of one of its headings.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Files still allowed to cite those sections. Empty this list (the lead's job) as the
 * citations are replaced; a file listed here that no longer cites one fails the test too.
 */
const CITATIONS_ALLOWED: Record<string, string> = {
  // the guide pages as 0530 seeded them; migration 0740 removes the citations from what users read
  'apps/server/src/db/migrations/0530_content_guide.sql': 'rewritten by 0740_content_methods_citations.sql',
  'apps/server/src/db/migrations/0740_content_methods_citations.sql': 'the patterns it removes',
};

/** Never read: dependencies, build output, and (at the top only) the local data and reports. */
const SKIP_ANYWHERE = new Set(['node_modules', '.git', 'dist', '.vite']);
const SKIP_AT_ROOT = new Set(['data', 'coverage', 'playwright-report', 'test-results']);
const SOURCE = /\.(ts|tsx|js|mjs|cjs|sh|sql)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(path.join(root, dir))) {
    if (SKIP_ANYWHERE.has(name) || (!dir && SKIP_AT_ROOT.has(name))) continue;
    const rel = dir ? `${dir}/${name}` : name;
    const st = statSync(path.join(root, rel));
    if (st.isDirectory()) walk(rel, out);
    else if (SOURCE.test(name) || name.endsWith('.md')) out.push(rel);
  }
  return out;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces → hyphens, repeats numbered. */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const m = !fence && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  return slugs;
}

const files = walk('');
const read = (rel: string) => readFileSync(path.join(root, rel), 'utf8');
const slugCache = new Map<string, Set<string>>();

/** Why `target` (a repository-relative path with an optional #anchor) does not resolve, or null. */
function brokenReason(target: string): string | null {
  const [file, anchor] = target.split('#') as [string, string | undefined];
  let text: string;
  try {
    text = read(file);
  } catch {
    return 'no such file';
  }
  if (!anchor) return null;
  if (!slugCache.has(file)) slugCache.set(file, headingSlugs(text));
  return slugCache.get(file)!.has(anchor) ? null : `no heading #${anchor}`;
}

describe('docs live in the repository', () => {
  it('no source, test or script file cites a section of the specification or the methods note', () => {
    const citing = files.filter((f) => SOURCE.test(f) && /\b(SPEC|METHODS)\s*§/.test(read(f)));
    expect(citing.filter((f) => !(f in CITATIONS_ALLOWED))).toEqual([]);
    expect(Object.keys(CITATIONS_ALLOWED).filter((f) => !citing.includes(f))).toEqual([]);
  });

  it('every docs/… path cited in a source or Markdown file exists, with its #anchor', () => {
    const broken: string[] = [];
    for (const f of files) {
      for (const m of read(f).matchAll(/(?<![\w./-])docs\/[\w./-]*?\.md(?:#[\p{L}\p{N}_-]+)?/gu)) {
        const why = brokenReason(m[0]);
        if (why) broken.push(`${f}: ${m[0]} (${why})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every relative .md link of a Markdown file resolves, with its #anchor', () => {
    const broken: string[] = [];
    for (const f of files.filter((x) => x.endsWith('.md'))) {
      for (const m of read(f).matchAll(/\]\(([^)\s]+?\.md)(#[\p{L}\p{N}_-]+)?\)/gu)) {
        if (/^[a-z]+:/i.test(m[1]!)) continue;
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(f), m[1]!)) + (m[2] ?? '');
        const why = brokenReason(target);
        if (why) broken.push(`${f}: ${m[1]}${m[2] ?? ''} (${why})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('computes GitHub heading slugs', () => {
    const slugs = headingSlugs('# A: b (c)\n## Ro/e\n```\n# not a heading\n```\n## Ro/e\n### `x_y` and 5 %');
    expect([...slugs]).toEqual(['a-b-c', 'roe', 'roe-1', 'x_y-and-5-']);
  });
});
