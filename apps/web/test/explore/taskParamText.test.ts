import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '@cellcloud/contracts/locale';
import { findTask, TASKS } from '@cellcloud/tasks/contract';
import { i18nPrefix, paramTexts } from '../../src/features/explore/tasks/paramText';
import { LOCALES, tasksNamespace } from './tasksNamespace';

/**
 * Issue 31: the task history showed `group1=[object Object]; group2=[object Object]` and raw
 * `key=value` text. paramTexts on the REAL task contracts and the REAL `tasks` namespace (the
 * app's tasks.json plus each task folder's messages, merged as src/i18n does), in both languages.
 */
const ts = {} as Record<Locale, TFunction>;

beforeAll(async () => {
  for (const loc of LOCALES) {
    const ns = await tasksNamespace(loc);
    ts[loc] = ns.t;
  }
});

const LEAK = /\[object |\{\{|undefined|^null$/;

describe('task history parameters (paramText)', () => {
  it('DE between groups: group specs as "level: groups", booleans and levels readable', () => {
    const def = findTask('deg-groups')!;
    const run = {
      params: def.params.parse({
        group1: [{ key: 'cluster', values: ['1'] }],
        group2: [{ key: 'cluster', values: ['2', '3'] }],
        pseudobulk: false,
        sampleKey: 'Sample ID',
      }) as Record<string, unknown>,
      uploads: {},
    };
    const en = paramTexts(def, run, { t: ts['en-US'] });
    const text = en.map((p) => `${p.label}: ${p.value}`).join('; ');
    expect(text).not.toMatch(LEAK);
    expect(en.find((p) => p.name === 'group1')!.value).toBe('cluster: 1');
    expect(en.find((p) => p.name === 'group2')!.value).toBe('cluster: 2, 3');
    expect(en.find((p) => p.name === 'pseudobulk')!.value).toBe('No');
    expect(en.find((p) => p.name === 'group1')!.label).not.toBe('group1');
    const zh = paramTexts(def, run, { t: ts['zh-CN'] });
    expect(zh.find((p) => p.name === 'pseudobulk')!.value).toBe('否');
    expect(zh.find((p) => p.name === 'group1')!.label).toMatch(/[\u4e00-\u9fff]/);
    // a saved subset is named, not shown as subset:<id>
    const subset = paramTexts(
      def,
      { params: { group1: [{ key: 'subset:abc', values: ['T cells'] }] } },
      { t: ts['en-US'], levelName: (k) => (k === 'subset:abc' ? 'My T cells' : k) },
    );
    expect(subset[0]!.value).toBe('My T cells: T cells');
  });

  it('cell score: the upload by its label and file name, options by their labels', () => {
    const def = findTask('cell-score')!;
    const run = {
      params: def.params.parse({ builtinSet: 'cellCycleG2M' }) as Record<string, unknown>,
      uploads: { geneSet: 'tcells.csv' },
    };
    for (const loc of LOCALES) {
      const texts = paramTexts(def, run, { t: ts[loc] });
      expect(texts[0]).toMatchObject({ name: 'geneSet', value: 'tcells.csv' });
      expect(texts[0]!.label).not.toBe('geneSet');
      const set = texts.find((p) => p.name === 'builtinSet')!.value;
      expect(set).toBe(loc === 'en-US' ? 'Cell cycle G2/M phase' : '细胞周期 G2/M 期');
      expect(texts.find((p) => p.name === 'method')!.value).not.toBe('both');
    }
  });

  it('a step-2 run names its source run, or says it was deleted', () => {
    const def = findTask('enrich')!;
    const id = '7f9c0d1e-0000-4000-8000-000000000001';
    const named = paramTexts(
      def,
      { params: { sourceTaskId: id } },
      { t: ts['en-US'], sourceName: (x) => (x === id ? '1 vs 2 · 11-29 10:00' : undefined) },
    );
    expect(named.find((p) => p.name === 'sourceTaskId')!.value).toBe('1 vs 2 · 11-29 10:00');
    const gone = paramTexts(def, { params: { sourceTaskId: id } }, { t: ts['zh-CN'] });
    expect(gone.find((p) => p.name === 'sourceTaskId')!.value).toBe('已删除的运行');
  });

  it('every task: every shown parameter has a translated label in both languages, no value leaks', () => {
    expect(TASKS.length).toBeGreaterThan(10);
    const bad: string[] = [];
    for (const def of TASKS) {
      const shape = (def.params as unknown as { shape: Record<string, unknown> }).shape;
      // a value of every param's kind: its schema default, else a group, a list or a string
      const params = Object.fromEntries(
        Object.keys(shape).map((k) => {
          const hint = def.fields?.[k]?.kind;
          const r = (shape[k] as { safeParse(v: unknown): { success: boolean; data?: unknown } }).safeParse(
            undefined,
          );
          if (r.success && r.data !== undefined) return [k, r.data];
          if (hint === 'group') return [k, [{ key: 'cluster', values: ['1', '2'] }]];
          if (hint === 'values' || hint === 'genes') return [k, ['A', 'B']];
          return [k, 'x'];
        }),
      );
      for (const loc of LOCALES)
        for (const p of paramTexts(def, { params }, { t: ts[loc] })) {
          if (p.label === p.name || p.label.includes(`${i18nPrefix(def)}.`))
            bad.push(`${loc} ${def.name}.${p.name}: no label`);
          if (LEAK.test(p.value)) bad.push(`${loc} ${def.name}.${p.name}: ${p.value}`);
        }
    }
    expect(bad).toEqual([]);
  });
});
