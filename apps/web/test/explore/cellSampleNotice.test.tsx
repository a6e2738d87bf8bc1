import type { i18n as I18n } from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SubsetView } from '@cellcloud/contracts/explore';
import {
  CellSampleNotice,
  cellSampleText,
  parseCellSample,
} from '../../src/features/explore/tasks/cellSampleNotice';
import { LOCALES, reactI18n } from './reactI18n';

/**
 * Issue 33: from 100,000 result cells a task runs on a sample of at most 50,000 cells and writes
 * its description as data/cell-sample.json (apps/server/src/jobs/task-sample.ts). The result view
 * says so above the results, in both languages — checked with the REAL tasks and explore
 * translations, rendered by React to HTML (the repo has no DOM for component tests).
 */
let i18n: I18n;
beforeAll(async () => {
  i18n = await reactI18n(['tasks', 'explore']);
});

/** The description as task-sample.ts writes it, for a 1M-cell result stratified by `by`. */
const written = (by: string | null, strata: number, perGroupFloor = 200) => ({
  nCells: 1_000_000,
  sampledCells: 50_000,
  stratifiedBy: by,
  strata,
  perGroupFloor,
  seed: 20_331,
  rule: 'stratified-hash-v1',
  perCellOutputs: 'sampled cells only; the other cells are NA',
});

const subsets = [{ id: 's1', name: 'T cells by donor', labels: ['a', 'b'] }] as unknown as SubsetView[];
// no key, template, internal level key or missing value reaches the reader
const LEAK = /\{\{|view\.|levels\.|subset:|undefined|NaN/;

function render(json: unknown) {
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <CellSampleNotice info={parseCellSample(json)} subsets={subsets} />
    </I18nextProvider>,
  );
}

describe('the notice of a task run on a sample of the cells', () => {
  it('says it in English, with the file’s numbers and the grouping’s readable name', () => {
    const t = i18n.getFixedT('en-US', 'tasks');
    const text = cellSampleText(parseCellSample(written('cluster', 24))!, t, 'en-US', subsets);
    expect(text).toContain('this run used 50,000 of the 1,000,000 cells of the analysis, up to');
    expect(text).toContain('up to 200 from each of the 24 groups of “Raw cluster”');
    expect(text).toContain('Every rerun uses the same cells');
    expect(text).toContain('no value (NA) in the per-cell outputs of this run');
    expect(text).not.toMatch(LEAK);
    // a subset grouping by its name, with the lower floor the sampler wrote for many groups
    const many = cellSampleText(parseCellSample(written('subset:s1', 500, 50))!, t, 'en-US', subsets);
    expect(many).toContain('up to 50 from each of the 500 groups of “T cells by donor”');
    // without a grouping: no per-group clause
    const plain = cellSampleText(parseCellSample(written(null, 1))!, t, 'en-US', subsets);
    expect(plain).toContain('this run used 50,000 of the 1,000,000 cells of the analysis, the same cells');
    expect(plain).not.toContain('groups');
  });

  it('says it in Chinese', () => {
    const t = i18n.getFixedT('zh-CN', 'tasks');
    const text = cellSampleText(parseCellSample(written('annot_full', 8))!, t, 'zh-CN', subsets);
    expect(text).toContain('本次运行使用了本分析 1,000,000 个细胞中的 50,000 个');
    expect(text).toContain('按“主要细胞类型”的 8 个分组抽样，每组最多先取 200 个细胞');
    expect(text).toContain('每次重新运行都使用相同的细胞');
    expect(text).toContain('没有值（NA）');
    expect(text).not.toMatch(LEAK);
    const plain = cellSampleText(parseCellSample(written(null, 1))!, t, 'zh-CN', subsets);
    expect(plain).toContain('1,000,000 个细胞中的 50,000 个，每次重新运行');
    expect(plain).not.toMatch(LEAK);
  });

  it('renders above the results in the reader’s language; nothing without a sample', async () => {
    for (const l of LOCALES) {
      await i18n.changeLanguage(l);
      const t = i18n.getFixedT(l, 'tasks');
      const html = render(written('cluster', 24));
      expect(html).toContain('data-testid="task-cell-sample"');
      expect(html).toContain(t('view.sample.title'));
      expect(html).toContain(cellSampleText(parseCellSample(written('cluster', 24))!, t, l, subsets));
      expect(html).not.toMatch(LEAK);
      // older runs have no file; a malformed or whole-result description is no sample
      expect(render(null)).toBe('');
      expect(render({ nCells: 80_000, sampledCells: 80_000 })).toBe('');
      expect(render({ nCells: '1000000' })).toBe('');
    }
  });
});
