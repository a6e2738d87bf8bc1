import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, '../..');
const load = (locale: string) =>
  JSON.parse(readFileSync(path.join(web, 'src/i18n/locales', locale, 'explore.json'), 'utf8')) as Record<
    string,
    unknown
  >;

function keys(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

/**
 * Source of the explore feature files that speak the `explore` namespace: task views under
 * features/explore/tasks use their own namespaces (tasks, annotation, cnv, …), checked by
 * apps/web/test/locales.test.ts, so a file counts here only if it uses `explore`.
 */
function sources(dir: string): string {
  return readdirSync(dir)
    .map((f) => path.join(dir, f))
    .map((p) => {
      if (statSync(p).isDirectory()) return sources(p);
      if (!/\.tsx?$/.test(p)) return '';
      const text = readFileSync(p, 'utf8');
      const ns = /useTranslation\((?:\[)?'([\w-]+)'/.exec(text)?.[1];
      return ns === undefined || ns === 'explore' || text.includes("'explore:") ? text : '';
    })
    .join('\n');
}

describe('explore namespace', () => {
  const en = keys(load('en-US')).sort();
  const zh = keys(load('zh-CN')).sort();
  const code = sources(path.join(web, 'src/features/explore'));
  const used = new Set(
    [
      ...code.matchAll(/\bt\('([^']+)'/g),
      ...code.matchAll(/'(?:explore:)?((?:levels|layers|tabs|quality|gene|deg|subsets)\.[\w.]+)'/g),
    ]
      .map((m) => m[1]!)
      // a key of another namespace named in full (`t('tasks:history.yes')`) is checked by
      // apps/web/test/locales.test.ts
      .filter((k) => !/^[\w-]+:/.test(k) || k.startsWith('explore:')),
  );

  it('zh-CN has exactly the en-US keys', () => {
    expect(zh).toEqual(en);
  });
  it('every key the code uses exists and every key is used', () => {
    expect([...used].filter((k) => !en.includes(k))).toEqual([]);
    // used: named literally anywhere ('page.notReady'), or under a prefix the code completes in a
    // template literal (`gene.markerTypes.${type}`, `quality.key.${k}`)
    const isUsed = (k: string) => {
      if (used.has(k) || code.includes(`'${k}'`) || code.includes(`'explore:${k}'`)) return true;
      const parts = k.split('.');
      for (let i = parts.length - 1; i > 0; i--)
        if (code.includes(`${parts.slice(0, i).join('.')}.\${`)) return true;
      return false;
    };
    expect(en.filter((k) => !isUsed(k))).toEqual([]);
  });
  it('zh-CN strings are translated (not copies of English sentences)', () => {
    const enFlat = load('en-US');
    const zhFlat = load('zh-CN');
    const get = (o: Record<string, unknown>, k: string) =>
      k.split('.').reduce<unknown>((a, p) => (a as Record<string, unknown>)[p], o) as string;
    const same = en.filter((k) => get(enFlat, k) === get(zhFlat, k) && get(enFlat, k).includes(' '));
    expect(same).toEqual([]);
  });
});
