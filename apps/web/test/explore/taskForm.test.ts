import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Locale } from '@cellcloud/contracts/locale';
import type { TaskDefinition } from '@cellcloud/contracts/tasks/define';
import { findTask, TASKS } from '@cellcloud/tasks/contract';
import { paramErrors } from '../../src/features/explore/tasks/formErrors';
import { i18nPrefix } from '../../src/features/explore/tasks/paramText';
import { LOCALES, tasksNamespace } from './tasksNamespace';

/**
 * Issue 31, "forms a researcher reads": every field of every task's run form has help text in
 * both languages, the tuning knobs sit under "Advanced" (never a required field), and the form's
 * own check of the values (the task's params schema) names fields by their label with what to
 * do, in the reader's language. The REAL contracts and the REAL `tasks` namespace (the app's
 * tasks.json plus each task folder's messages, merged as src/i18n does).
 */
const ts = {} as Record<Locale, TFunction>;
const has = {} as Record<Locale, (key: string) => boolean>;

beforeAll(async () => {
  for (const loc of LOCALES) {
    const ns = await tasksNamespace(loc);
    ts[loc] = ns.t;
    has[loc] = ns.has;
  }
});

interface Prop {
  default?: unknown;
  type?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: Prop[];
}
/** The params as the form reads them (zod's JSON Schema of the input). */
function formSchema(def: TaskDefinition) {
  const js = z.toJSONSchema(def.params, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Prop>;
    required?: string[];
  };
  const props = Object.entries(js.properties ?? {}).filter(([k]) => def.fields?.[k]?.kind !== 'hidden');
  const required = props
    .filter(([k, p]) => js.required?.includes(k) && p.default === undefined)
    .map(([k]) => k);
  return { props, required };
}

const HAN = /[\u4e00-\u9fff]/;
const LEAK = /\[object |\{\{|undefined|Invalid input|expected /;

describe('task run forms (issue 31)', () => {
  it('every shown field and upload of every task has help text in en-US and zh-CN', () => {
    expect(TASKS.length).toBe(14);
    const missing: string[] = [];
    for (const def of TASKS) {
      const prefix = i18nPrefix(def);
      const keys = [
        ...formSchema(def).props.map(([k]) => `${prefix}.help.${k}`),
        ...(def.uploads ?? []).map((u) => `${prefix}.uploadHelp.${u.name}`),
      ];
      for (const loc of LOCALES)
        for (const key of keys) {
          const text = has[loc](key) ? ts[loc](key) : '';
          // a sentence: Chinese says in 8 characters what English says in 20
          if (text.length < (loc === 'zh-CN' ? 8 : 20)) missing.push(`${loc} ${key}`);
          else if (loc === 'zh-CN' && !HAN.test(text)) missing.push(`${loc} ${key}: not Chinese`);
        }
    }
    expect(missing).toEqual([]);
  });

  it('advanced flags: on real, shown params; never on a required field; the main section is not empty', () => {
    const bad: string[] = [];
    for (const def of TASKS) {
      const { props, required } = formSchema(def);
      const names = props.map(([k]) => k);
      for (const [k, hint] of Object.entries(def.fields ?? {})) {
        if (!hint.advanced) continue;
        if (!names.includes(k)) bad.push(`${def.name}.${k}: advanced but not a shown param`);
        if (required.includes(k)) bad.push(`${def.name}.${k}: required but under Advanced`);
      }
      if (!names.some((k) => !def.fields?.[k]?.advanced)) bad.push(`${def.name}: no main field`);
    }
    expect(bad).toEqual([]);
    // the CNV form no longer shows its 25 fields at once (issue 31)
    const cnv = formSchema(findTask('cnv')!).props.filter(([k]) => !findTask('cnv')!.fields?.[k]?.advanced);
    expect(cnv.length).toBeLessThanOrEqual(8);
  });

  it('empty required fields: named by their label, with what to do, in both languages', () => {
    for (const [task, fields] of [
      ['interaction', ['groupBy']],
      ['cnv', ['groupBy', 'reference']],
      ['deg-groups', ['group1', 'group2']],
      ['ith', ['groupBy']],
      ['regulons', ['groupBy']],
    ] as const) {
      const def = findTask(task)!;
      for (const loc of LOCALES) {
        const errors = paramErrors(def, {}, ts[loc]);
        expect(errors.map((e) => e.name).sort()).toEqual([...fields].sort());
        for (const e of errors) {
          const label = ts[loc](`${i18nPrefix(def)}.params.${e.name}`);
          expect(e.errors).toEqual([
            loc === 'en-US'
              ? `${label} is required: choose or enter a value.`
              : `“${label}”为必填项：请选择或输入一个值。`,
          ]);
        }
      }
    }
  });

  it('out-of-range, non-integer and not-odd numbers: the bound and the label, never the key', () => {
    const cnv = findTask('cnv')!;
    const base = { groupBy: 'cell_type', reference: ['T cells'] };
    expect(paramErrors(cnv, base, ts['en-US'])).toEqual([]);
    expect(paramErrors(cnv, { ...base, windowLength: 100 }, ts['en-US'])).toEqual([
      { name: 'windowLength', errors: ['Smoothing window (genes) must be an odd number (for example 101).'] },
    ]);
    expect(paramErrors(cnv, { ...base, cutoff: 200 }, ts['en-US'])).toEqual([
      { name: 'cutoff', errors: ['Mean expression cutoff must be at most 100: enter a smaller value.'] },
    ]);
    expect(paramErrors(cnv, { ...base, subcloneK: 2.5 }, ts['zh-CN'])).toEqual([
      { name: 'subcloneK', errors: ['“亚克隆数（k）”必须是整数。'] },
    ]);
    // a cleared number is left out: the schema's default applies, as on the server
    expect(paramErrors(cnv, { ...base, cutoff: null, observed: [] }, ts['en-US'])).toEqual([]);
  });

  it('every task: each numeric field past its bounds gives a readable, translated error on that field', () => {
    const bad: string[] = [];
    let checked = 0;
    for (const def of TASKS) {
      const prefix = i18nPrefix(def);
      for (const [k, p] of formSchema(def).props) {
        const s = p.anyOf?.find((x) => x.type !== 'null') ?? p;
        if (s.type !== 'number' && s.type !== 'integer') continue;
        const wrong = [
          ...(s.minimum !== undefined ? [s.minimum - 1] : []),
          ...(s.maximum !== undefined && s.maximum < 1e9 ? [s.maximum + 1] : []),
        ];
        for (const v of wrong)
          for (const loc of LOCALES) {
            checked++;
            const errors = paramErrors(def, { [k]: v }, ts[loc]);
            const mine = errors.find((e) => e.name === k);
            const label = ts[loc](`${prefix}.params.${k}`);
            if (!mine) bad.push(`${loc} ${def.name}.${k}=${v}: no error on the field`);
            for (const text of mine?.errors ?? []) {
              if (!text.includes(label)) bad.push(`${loc} ${def.name}.${k}: "${text}" lacks the label`);
              // the param key nowhere but inside the label ("Random seed" for `seed`)
              const rest = text.replace(label, '');
              if (LEAK.test(text) || (k.length > 2 && new RegExp(`\\b${k}\\b`).test(rest)))
                bad.push(`${loc} ${def.name}.${k}: "${text}"`);
              if (loc === 'zh-CN' && !HAN.test(text)) bad.push(`${loc} ${def.name}.${k}: "${text}"`);
            }
          }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(bad).toEqual([]);
  });
});
