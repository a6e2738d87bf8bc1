import { definition as cnvTask } from '../../src/cnv/contract';
import { hasSharedData, SHARED_DATA_DIR } from '@cellcloud/testkit';
import { describe, expect, it } from 'vitest';
import { cnvPlantedData, PLANTED_TABLES, readPlantedGenes } from '../../../../scripts/synth/cnv-planted';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { engine as cnvEngineTask } from '../../src/cnv/engine';
import { MemorySink, resultHandleFromDataset, TaskError } from '@cellcloud/engine/tasks/kit';

const resources = nodeResourceReader(SHARED_DATA_DIR);
const params = cnvTask.params.parse({ groupBy: 'cell_type', reference: ['normal_T', 'normal_M'] });

function handle(genome: 'hg38' | 'mm10', species: string, rename?: (s: string, i: number) => string) {
  const d = cnvPlantedData(readPlantedGenes(SHARED_DATA_DIR, genome), { cellsPerType: 80, seed: 3, genome });
  const symbols = rename ? d.genes.symbols.map(rename) : d.genes.symbols;
  const ds = {
    counts: d.counts,
    genes: { ids: symbols, symbols },
    cells: {
      barcodes: d.barcodes,
      columns: {
        cell_type: { kind: 'categorical' as const, values: d.cellType },
        'Sample ID': { kind: 'categorical' as const, values: d.sample },
      },
    },
    embeddings: {},
  };
  return { data: d, result: resultHandleFromDataset(ds, { species }) };
}

async function armMeans(sink: MemorySink): Promise<Map<string, Map<string, number>>> {
  const tab = new Map<string, Map<string, number>>();
  for (const [g, kind, , arm, mean] of sink.tables.get('arm_groups')!.rows) {
    if (kind !== 'type') continue;
    if (!tab.has(String(g))) tab.set(String(g), new Map());
    tab.get(String(g))!.set(String(arm), Number(mean));
  }
  return tab;
}

describe.skipIf(
  !hasSharedData(PLANTED_TABLES.hg38, PLANTED_TABLES.mm10, 'gene_positions/genes_hg38_numbat.tsv.gz'),
)('cnv on planted arm-level events', () => {
  for (const [genome, species] of [
    ['hg38', 'human'],
    ['mm10', 'mouse'],
  ] as const) {
    it(`${species} (${genome}): every planted event recovered, none in the references`, async () => {
      const { data, result } = handle(genome, species);
      const sink = new MemorySink();
      const summary = await cnvEngineTask.run({ result, params, onProgress: () => {}, sink, resources });
      expect(summary.genome).toBe(genome);
      const tab = await armMeans(sink);
      for (const ref of ['normal_T', 'normal_M']) {
        for (const [arm, v] of tab.get(ref)!) expect(Math.abs(v - 1), `${ref} ${arm}`).toBeLessThan(0.01);
      }
      for (const e of data.events) {
        const v = tab.get(e.type)!.get(e.arm)!;
        if (e.kind === 'loss') expect(v, `${e.type} ${e.arm}`).toBeLessThan(0.96);
        else expect(v, `${e.type} ${e.arm}`).toBeGreaterThan(1.04);
      }
      // no spurious event on chromosomes without a planted one (an arm next to a planted arm of the
      // same chromosome may pick up a little through the smoothing window)
      const chr = (arm: string) => arm.replace(/[pq]$/, '');
      for (const t of ['tumour_A', 'tumour_B']) {
        const hit = new Set(data.events.filter((e) => e.type === t).map((e) => chr(e.arm)));
        for (const [arm, v] of tab.get(t)!)
          if (!hit.has(chr(arm))) expect(Math.abs(v - 1), `${t} ${arm}`).toBeLessThan(0.02);
      }
    });
  }

  it('takes reference cells from listed samples, downsamples them per type, and k-means subclones per sample', async () => {
    const { data, result } = handle('hg38', 'human');
    const p = cnvTask.params.parse({
      groupBy: 'cell_type',
      reference: 'normal_T,normal_M', // CLI form
      splitRef: 'listed',
      refSamples: ['S2'],
      maxRefCells: 60,
      subcloneMethod: 'kmeans',
      subcloneK: 2,
    });
    const sink = new MemorySink();
    const summary = await cnvEngineTask.run({ result, params: p, onProgress: () => {}, sink, resources });
    const refInS2 = data.cellType.filter((t, i) => t.startsWith('normal') && data.sample[i] === 'S2').length;
    expect(summary.nReferenceAvailable).toBe(refInS2);
    expect(summary.nReference).toBe(60); // 60 ÷ 2 types = 30 per type
    const rows = sink.tables.get('cnv_scores')!.rows;
    const refRows = rows.filter((r) => r[5] === true);
    expect(refRows.every((r) => r[2] === 'S2')).toBe(true);
    expect(refRows.filter((r) => r[1] === 'normal_T')).toHaveLength(30);
    // observed cells of both samples, two k-means subclones in each sample
    expect(new Set(summary.subclones.map((s) => s.label))).toEqual(
      new Set(['S1_KM_1', 'S1_KM_2', 'S2_KM_1', 'S2_KM_2']),
    );
    // the two planted tumours separate: each k-means subclone is (almost) one tumour type
    for (const sc of summary.subclones) {
      const types = rows.filter((r) => r[4] === sc.label).map((r) => r[1]);
      const major = Math.max(...['tumour_A', 'tumour_B'].map((t) => types.filter((x) => x === t).length));
      expect(major / types.length, sc.label).toBeGreaterThan(0.95);
    }
  });

  it('refuses other species with the SPEC message', async () => {
    const { result } = handle('hg38', 'zebrafish');
    const err = await cnvEngineTask
      .run({ result, params, onProgress: () => {}, sink: new MemorySink(), resources })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskError);
    expect((err as TaskError).key).toBe('common.speciesHumanMouse');
  });

  it('says how many genes matched when few do', async () => {
    const { result } = handle('hg38', 'human', (s, i) => (i % 20 === 0 ? s : `NOTAGENE${i}`));
    const err = await cnvEngineTask
      .run({ result, params, onProgress: () => {}, sink: new MemorySink(), resources })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskError);
    expect((err as TaskError).key).toBe('cnv.fewGenesMatched');
    const matched = (err as TaskError).params.matched as number;
    expect(matched).toBeGreaterThan(0);
    expect(matched).toBeLessThan(result.nGenes / 10);
    expect((err as TaskError).params.total).toBe(result.nGenes);
  });

  it('refuses fewer than 50 observed cells', async () => {
    const { result } = handle('hg38', 'human');
    const p = cnvTask.params.parse({
      groupBy: 'cell_type',
      reference: ['normal_T', 'normal_M', 'tumour_A'],
      observed: ['tumour_B'],
      samples: ['S1'],
    });
    const err = await cnvEngineTask
      .run({ result, params: p, onProgress: () => {}, sink: new MemorySink(), resources })
      .catch((e: unknown) => e);
    expect((err as TaskError).key).toBe('cnv.tooFewObserved');
    expect((err as TaskError).params).toEqual({ cells: 40, min: 50 });
  });
});
