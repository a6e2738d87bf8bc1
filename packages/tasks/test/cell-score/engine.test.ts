import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  groupsOf,
  isTaskError,
  MemorySink,
  resultHandleFromDataset,
  runTask,
  TaskError,
} from '@cellcloud/engine/tasks/kit';
import type { EngineTask, ResourceReader, ResultHandle } from '@cellcloud/engine/tasks/kit';
import { readH5adBytes } from '@cellcloud/formats';
import { sharedData } from '@cellcloud/testkit';
import { definition as cellScoreTask } from '../../src/cell-score/contract';
import { engine as cellScoreEngine } from '../../src/cell-score/engine';
import { BUILTIN_GENE_SETS } from '../../src/cell-score/engine/gene-sets';
import { parseGeneSetFile } from '../../src/cell-score/engine/gene-set-file';

const H5AD = sharedData('pbmc3k/pbmc3k.h5ad');
const noResources: ResourceReader = {
  readBytes: (p) => Promise.reject(new TaskError('common.resourceMissing', p, { path: p })),
  readText: (p) => Promise.reject(new TaskError('common.resourceMissing', p, { path: p })),
  exists: async () => false,
  list: async () => [],
};
const utf8 = (s: string) => new TextEncoder().encode(s);
const T_LABELS = ['Naive CD4 T', 'Memory CD4 T', 'CD8 T'];

async function score(result: ResultHandle, params: object, uploads?: Record<string, Uint8Array>) {
  const sink = new MemorySink();
  const summary = await cellScoreEngine.run({
    result,
    params: cellScoreTask.params.parse(params),
    onProgress: () => {},
    sink,
    resources: noResources,
    uploads,
  });
  return { summary, sink };
}

function meanBy(values: Float64Array, groups: Map<string, number[]>): Map<string, number> {
  return new Map(
    [...groups].map(([l, cells]) => [l, cells.reduce((s, c) => s + values[c]!, 0) / cells.length]),
  );
}

describe.skipIf(!H5AD)('cell score on pbmc3k (Seurat tutorial labels)', () => {
  let result: ResultHandle;
  beforeAll(async () => {
    const ds = await readH5adBytes(new Uint8Array(await readFile(H5AD!)), 'pbmc3k.h5ad');
    result = resultHandleFromDataset(ds, { species: 'human' });
  });

  it('a T-cell gene set scores highest in the T-cell labels, by AddModuleScore and by UCell', async () => {
    const { summary, sink } = await score(result, { builtinSet: 'tCell', name: 'T' });
    expect(summary.genesUsed.length).toBeGreaterThanOrEqual(6);
    const labels = groupsOf(result, 'label');
    for (const key of ['T_ModuleScore', 'T_UCell']) {
      const col = sink.cells.get(key);
      expect(col?.kind).toBe('numeric');
      const means = meanBy(col!.values as Float64Array, labels);
      const ranked = [...means].sort((a, b) => b[1] - a[1]).map(([l]) => l);
      expect(T_LABELS).toContain(ranked[0]);
      const worstT = Math.min(...T_LABELS.map((l) => means.get(l)!));
      for (const l of ['B', 'CD14+ Mono', 'FCGR3A+ Mono', 'DC', 'Platelet'])
        expect(means.get(l)!).toBeLessThan(worstT);
    }
    const table = sink.tables.get('scores')!;
    expect(table.columns).toEqual(['barcode', 'T_ModuleScore', 'T_UCell']);
    expect(table.rows.length).toBe(result.nCells);
    const ucell = sink.cells.get('T_UCell')!.values as Float64Array;
    expect(Math.min(...ucell)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...ucell)).toBeLessThanOrEqual(1);
  });

  it('an uploaded csv with the built-in genes gives the same scores as the built-in set', async () => {
    const builtin = await score(result, { builtinSet: 'tCell' });
    const csv = `\uFEFF${BUILTIN_GENE_SETS.tCell!.map((g, i) => (i % 2 ? `"${g}"` : g)).join('\r\n')}\r\n\r\n`;
    const uploaded = await score(result, {}, { geneSet: utf8(csv) });
    expect(uploaded.summary.source).toBe('upload');
    expect(uploaded.summary.genesUsed).toEqual(builtin.summary.genesUsed);
    for (const key of ['gset_ModuleScore', 'gset_UCell']) {
      expect(Array.from(uploaded.sink.cells.get(key)!.values as Float64Array)).toEqual(
        Array.from(builtin.sink.cells.get(key)!.values as Float64Array),
      );
    }
  });

  it('refuses malformed gene set files with the common message key and names the problem', async () => {
    const cases: [string | Uint8Array, RegExp][] = [
      ['gene,log2fc\nCD3D,1.2\nCD3E,0.8\n', /line 1 has 2 values/],
      ['', /empty/],
      [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0xff, 0xfe]), /UTF-8|text/],
      ['CD3D\nnot a gene\n', /line 2/],
    ];
    for (const [content, detail] of cases) {
      const bytes = typeof content === 'string' ? utf8(content) : content;
      const err = await score(result, {}, { geneSet: bytes }).catch((e: unknown) => e);
      expect(isTaskError(err) && err.key).toBe('common.geneSetFile');
      expect(String((err as TaskError).params.detail)).toMatch(detail);
    }
    const none = await score(result, { genes: ['NOTAGENE1', 'NOTAGENE2'] }).catch((e: unknown) => e);
    expect(isTaskError(none) && none.key).toBe('common.noGenesMatched');
    const two = await score(result, { builtinSet: 'tCell' }, { geneSet: utf8('CD3D\n') }).catch(
      (e: unknown) => e,
    );
    expect(isTaskError(two) && two.key).toBe('cellScore.twoGeneSets');
  });

  it('runTask writes the documented layout, outputs.json last, and refuses invalid params', async () => {
    const files = new Map<string, Uint8Array>();
    const order: string[] = [];
    const writer = {
      write: async (p: string, b: Uint8Array) => {
        files.set(p, b);
        order.push(p);
      },
    };
    const r = await runTask({
      definition: cellScoreTask,
      engineTask: cellScoreEngine as EngineTask<never, unknown>,
      result,
      params: { builtinSet: 'bCell', name: 'B', method: 'ucell' },
      writer,
      resources: noResources,
    });
    expect(order.at(-1)).toBe('outputs.json');
    expect(order).toContain('summary.json');
    expect(r.outputs.tables).toEqual([
      { name: 'scores', file: 'tables/scores.csv', rows: result.nCells, columns: ['barcode', 'B_UCell'] },
    ]);
    expect(r.outputs.obs.map((o) => o.file)).toEqual(['obs/B_UCell.f32']);
    expect(files.get('obs/B_UCell.f32')!.byteLength).toBe(4 * result.nCells);
    const bad = await runTask({
      definition: cellScoreTask,
      engineTask: cellScoreEngine as EngineTask<never, unknown>,
      result,
      params: { builtinSet: 'tCell', nBins: 0, colour: 'red' },
      writer,
      resources: noResources,
    }).catch((e: unknown) => e);
    expect(isTaskError(bad) && bad.key).toBe('common.invalidParams');
  });
});

describe('gene set file parsing', () => {
  it('keeps one gene per line and drops duplicates and blank lines', () => {
    expect(parseGeneSetFile(utf8('CD3D\n\nCD3E,\n CD3D \nHLA-DRA\n'))).toEqual(['CD3D', 'CD3E', 'HLA-DRA']);
  });
});
