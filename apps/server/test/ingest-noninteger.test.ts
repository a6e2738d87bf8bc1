import { ROUTES } from '@cellcloud/contracts/api-paths';
import { looksPlateBased } from '@cellcloud/contracts/wizard';
import { hasSharedData, SHARED_DATA_DIR } from '@cellcloud/testkit';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileFrom, uploadSample, waitParsed } from './files-helpers';
import { signUp } from './support/accounts';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';

/**
 * Issue 32 on the server: the inferCNV oligodendroglioma matrix, uploaded as it ships with its
 * cell annotation file as the metadata table, is parsed (not refused as "not counts"), its file
 * properties record the value kind, and the wizard's sample list gives what the plate preset
 * needs (cells, median counts per cell, value kind).
 */
const DIR = 'infercnv_oligodendroglioma';
const MATRIX = `${DIR}/oligodendroglioma_expression_downsampled.counts.matrix.gz`;
const ANNOT = `${DIR}/oligodendroglioma_annotations_downsampled.txt`;

describe.skipIf(!hasSharedData(MATRIX, ANNOT))(`non-integer upload on ${TEST_DB}`, () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await createTestServer();
    await s.listen();
    token = (await signUp(s)).token;
  });
  afterAll(async () => s?.close());

  it('the oligodendroglioma matrix is accepted as non-integer counts of a plate', async () => {
    const row = await uploadSample(s, token, 'Oligodendroglioma', [
      fileFrom(path.join(SHARED_DATA_DIR, MATRIX)),
      fileFrom(path.join(SHARED_DATA_DIR, ANNOT), undefined, 'metadata'),
    ]);
    const done = await waitParsed(s, token, row.id);
    expect(done.failure?.message ?? null).toBeNull();
    expect(done.state).toBe('completed');
    const p = done.properties!;
    expect([p.cells, p.genes]).toEqual([184, 10338]);
    expect(p.nonInteger).toBe(true);
    expect(p.valueKind).toBe('nonIntegerCounts');
    expect(p.species).toBe('Homo sapiens');
    expect(p.umi.median).toBeGreaterThan(50_000);

    const list = await s.request('GET', ROUTES.drafts.samples, { token });
    expect(list.status).toBe(200);
    const sample = (
      list.body.data as { id: string; cells: number; umiMedian: number; valueKind: string }[]
    ).find((x) => x.id === row.id)!;
    expect(sample.valueKind).toBe('nonIntegerCounts');
    expect(sample.umiMedian).toBe(p.umi.median);
    expect(
      looksPlateBased([
        { cells: sample.cells, umi: { median: sample.umiMedian }, valueKind: 'nonIntegerCounts' },
      ]),
    ).toBe(true);
  });
});
