import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTask, speciesRefusal, type TaskDefinition } from '@cellcloud/contracts/tasks/define';
import { isTaskError } from '../../src/tasks/errors';
import { checkSpecies, FileTaskSink } from '../../src/tasks/run-task';

/** The runner's generic parts: species rules (docs/product/validation.md) and the file sink's encoding and manifest. */
describe('task runner', () => {
  it('applies the species rules with the common message keys', () => {
    expect(speciesRefusal('human', 'Homo sapiens')).toBeNull();
    expect(speciesRefusal('human', 'Mus musculus')).toBe('common.speciesHumanOnly');
    expect(speciesRefusal('human-mouse', 'mouse')).toBeNull();
    expect(speciesRefusal('human-mouse', 'Danio rerio')).toBe('common.speciesHumanMouse');
    expect(speciesRefusal('any', 'Danio rerio')).toBeNull();
    expect(speciesRefusal('human', 'unknown')).toBeNull();
    const humanOnly: TaskDefinition = defineTask({
      name: 'probe',
      titleKey: 'probe.title',
      params: z.object({}).strict(),
      summary: z.object({}),
      permission: 'exploreGeneExpression',
      species: 'human',
      tab: 'geneExpression',
      timeoutMinutes: 1,
      messages: { 'en-US': {}, 'zh-CN': {} },
    });
    const err = (() => {
      try {
        checkSpecies(humanOnly, 'Mus musculus');
      } catch (e) {
        return e;
      }
    })();
    expect(isTaskError(err) && err.key).toBe('common.speciesHumanOnly');
    expect(isTaskError(err) && err.params).toEqual({ species: 'Mus musculus' });
  });

  it('writes tables as CSV, per-cell columns in the explorer encoding and keeps the manifest entries', async () => {
    const files = new Map<string, Uint8Array>();
    const sink = new FileTaskSink({ write: async (p, b) => void files.set(p, b) }, 3);
    await sink.table('top genes', {
      columns: ['gene', 'score'],
      rows: [
        ['CD3D', 1.5],
        ['a,b', null],
      ],
    });
    await sink.cellColumn('cell type', { kind: 'categorical', values: ['T', 'B', 'T'] });
    await sink.cellColumn('score', { kind: 'numeric', values: Float64Array.from([0.5, -1, 2]) });
    await sink.data('curve', { x: [1, 2] });
    expect(new TextDecoder().decode(files.get('tables/top_genes.csv'))).toBe(
      'gene,score\nCD3D,1.5\n"a,b",\n',
    );
    expect(sink.obs).toEqual([
      { kind: 'categorical', key: 'cell type', file: 'obs/cell_type.u16', dtype: 'u16', labels: ['B', 'T'] },
      { kind: 'numeric', key: 'score', file: 'obs/score.f32', min: -1, max: 2 },
    ]);
    expect(Array.from(new Uint16Array(files.get('obs/cell_type.u16')!.slice().buffer))).toEqual([1, 0, 1]);
    expect(sink.files).toEqual([{ name: 'curve', file: 'data/curve.json', bytes: 11 }]);
    await expect(sink.cellColumn('short', { kind: 'categorical', values: ['x'] })).rejects.toThrow(
      /1 values for 3 cells/,
    );
    await expect(sink.table('bad', { columns: ['a'], rows: [[1, 2]] })).rejects.toThrow(
      /2 values for 1 columns/,
    );
  });
});
