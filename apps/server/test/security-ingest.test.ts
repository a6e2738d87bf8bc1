import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { FILES_API, type UploadRow } from '@cellcloud/contracts';
import { sharedData } from '@cellcloud/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announce, tusSend, uploadSample, waitParsed, type FileToSend } from './files-helpers';
import { signUp } from './support/accounts';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';

/**
 * Issue 12, defects 2–4 end to end: uploads are parsed in a memory-capped child process with
 * limits on decompressed bytes and declared sizes, a bounded retry count, and deleting an upload
 * stops its parse; bad values and damaged HDF5 end as format errors that never break the list.
 */
const enc = new TextEncoder();
const barcodes = (n: number) =>
  Array.from(
    { length: n },
    (_, j) =>
      `${j
        .toString(4)
        .padStart(14, '0')
        .replace(/[0-3]/g, (d) => 'ACGT'[Number(d)]!)}-1`,
  ).join('\n') + '\n';
const features = (n: number) =>
  Array.from({ length: n }, (_, g) => `ENSG${String(g).padStart(11, '0')}\tGENE${g}\tGene Expression`).join(
    '\n',
  ) + '\n';
const file = (name: string, text: string | Uint8Array): FileToSend => ({
  name,
  bytes: typeof text === 'string' ? enc.encode(text) : text,
});

/** Processes whose command line names this upload (the parse child shows `dataset.ingest <uploadId>`). */
function processesOf(uploadId: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(uploadId)) out.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe(`security: upload parsing on ${TEST_DB}`, () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await createTestServer({ INGEST_MAX_ATTEMPTS: '2' });
    await s.listen();
    token = (await signUp(s)).token;
  });
  afterAll(async () => s?.close());

  it('2. an MTX declaring 900,000,000 entries in a few KB fails at once with a clear message; the API process does not grow', async () => {
    const rssBefore = process.memoryUsage().rss;
    const mtx = gzipSync(
      enc.encode(`%%MatrixMarket matrix coordinate integer general\n30000 2000 900000000\n1 1 1\n`),
    );
    const row = await uploadSample(s, token, 'bomb_declared', [
      file('matrix.mtx.gz', mtx),
      file('features.tsv', features(30000)),
      file('barcodes.tsv', barcodes(2000)),
    ]);
    const done = await waitParsed(s, token, row.id);
    expect(done.state).toBe('failed');
    expect(done.failure?.code).toBe('format.limits.declared_too_large');
    expect(done.failure?.retryable).toBe(false);
    expect(done.failure?.message).toMatch(/900000000 entries/);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(300 * 1024 * 1024);
  });

  it('2. a barcodes gzip bomb is stopped by the decompressed-bytes limit', async () => {
    const bomb = gzipSync(Buffer.alloc(300 * 1024 * 1024, 'AAAACCCCGGGGTT-1\n'));
    const mtx = `%%MatrixMarket matrix coordinate integer general\n3 4 1\n1 1 1\n`;
    const row = await uploadSample(s, token, 'bomb_barcodes', [
      file('matrix.mtx', mtx),
      file('features.tsv', features(3)),
      file('barcodes.tsv.gz', bomb),
    ]);
    const done = await waitParsed(s, token, row.id);
    expect(done.failure?.code).toBe('format.limits.decompressed_too_large');
  });

  it('2. the retry count is bounded: an upload whose parse keeps crashing ends failed with a clear message', async () => {
    const row = await uploadSample(s, token, 'crashing', [
      file('matrix.mtx', `%%MatrixMarket matrix coordinate integer general\n3 4 1\n1 1 1\n`),
      file('features.tsv', features(3)),
      file('barcodes.tsv', barcodes(4)),
    ]);
    await waitParsed(s, token, row.id);
    // As if the parse had crashed the process twice already (INGEST_MAX_ATTEMPTS=2) and a restart re-queued it.
    await s.ctx.db.query(`UPDATE uploads SET state = 'parsing', attempts = 2 WHERE id = $1`, [row.id]);
    const { enqueueIngest } = s.ctx.services.files as { enqueueIngest(id: string): Promise<void> };
    await enqueueIngest(row.id);
    const done = await waitParsed(s, token, row.id);
    expect(done.state).toBe('failed');
    expect(done.failure?.code).toBe('files.failed.attempts');
    expect(done.failure?.message).toMatch(/2 times/);
    // Retry (the user's decision) starts again from zero attempts and succeeds.
    const retry = await s.request('POST', FILES_API.retry(row.id), { token });
    expect(retry.status).toBe(200);
    expect((await waitParsed(s, token, row.id)).state).toBe('completed');
  });

  it('2. deleting an upload stops its running parse (the child process is killed)', async () => {
    // ~4M entries: a few seconds of parsing in the child.
    const lines: string[] = [];
    for (let j = 1; j <= 2000; j++)
      for (let g = 1; g <= 2000; g++) lines.push(`${g} ${j} ${1 + ((g * j) % 7)}`);
    const mtx = gzipSync(
      enc.encode(
        `%%MatrixMarket matrix coordinate integer general\n2000 2000 ${lines.length}\n${lines.join('\n')}\n`,
      ),
    );
    const row = await announce(s, token, 'to_delete', [
      file('matrix.mtx.gz', mtx),
      file('features.tsv', features(2000)),
      file('barcodes.tsv', barcodes(2000)),
    ]);
    const files = [
      file('matrix.mtx.gz', mtx),
      file('features.tsv', features(2000)),
      file('barcodes.tsv', barcodes(2000)),
    ];
    for (const [i, f] of files.entries()) await tusSend(s.url!, token, row.files[i]!.slot, f);
    const end = Date.now() + 60_000;
    while (processesOf(row.id).length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(processesOf(row.id).length).toBeGreaterThan(0);
    expect((await s.request('DELETE', FILES_API.upload(row.id), { token })).status).toBe(200);
    const gone = Date.now() + 5000;
    while (processesOf(row.id).length > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 50));
    expect(processesOf(row.id)).toEqual([]);
    expect(await s.ctx.storage.stat(`datasets/${row.id}/counts.h5ad`)).toBeFalsy();
  });

  it('2. a parse that runs past INGEST_TIMEOUT_MINUTES is stopped with a message (a damaged HDF5 file can loop forever)', async () => {
    const t = await createTestServer({ INGEST_TIMEOUT_MINUTES: '0.005' });
    try {
      await t.listen();
      const tok = (await signUp(t)).token;
      const lines: string[] = [];
      for (let j = 1; j <= 1500; j++)
        for (let g = 1; g <= 1500; g++) lines.push(`${g} ${j} ${1 + ((g * j) % 7)}`);
      const mtx = gzipSync(
        enc.encode(
          `%%MatrixMarket matrix coordinate integer general\n1500 1500 ${lines.length}\n${lines.join('\n')}\n`,
        ),
      );
      const row = await uploadSample(t, tok, 'too_slow', [
        file('matrix.mtx.gz', mtx),
        file('features.tsv', features(1500)),
        file('barcodes.tsv', barcodes(1500)),
      ]);
      const done = await waitParsed(t, tok, row.id);
      expect(done.state).toBe('failed');
      expect(done.failure?.code).toBe('files.failed.timeout');
      expect(done.failure?.message).toMatch(/Parsing was stopped after/);
      expect(processesOf(row.id)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('3. a count of 1e300 is a format error naming the line; the upload list keeps working', async () => {
    const mtx = `%%MatrixMarket matrix coordinate integer general\n3 4 2\n1 1 2\n2 3 1e300\n`;
    const row = await uploadSample(s, token, 'huge_value', [
      file('matrix.mtx', mtx),
      file('features.tsv', features(3)),
      file('barcodes.tsv', barcodes(4)),
    ]);
    const done = await waitParsed(s, token, row.id);
    expect(done.failure?.code).toBe('format.counts.not_finite');
    expect(done.failure?.message).toMatch(/line 4/);
    const list = await s.request('GET', FILES_API.uploads, { token });
    expect(list.status).toBe(200);
    expect((await s.request('GET', FILES_API.upload(row.id), { token })).status).toBe(200);
  });

  it('3. an upload stored before the fix with null totals (Infinity in JSON) does not break the list, detail or properties', async () => {
    const row = await uploadSample(s, token, 'old_infinite', [
      file('matrix.mtx', `%%MatrixMarket matrix coordinate integer general\n3 4 1\n1 1 1\n`),
      file('features.tsv', features(3)),
      file('barcodes.tsv', barcodes(4)),
    ]);
    await waitParsed(s, token, row.id);
    await s.ctx.db.query(
      `UPDATE uploads SET properties = jsonb_set(properties, '{umi,total}', 'null'::jsonb) WHERE id = $1`,
      [row.id],
    );
    expect((await s.request('GET', FILES_API.uploads, { token })).status).toBe(200);
    expect((await s.request('GET', FILES_API.upload(row.id), { token })).status).toBe(200);
    expect((await s.request('GET', FILES_API.properties(row.id), { token })).status).not.toBe(500);
  });

  it('3. non-integer values of a dense table (TPM) are accepted and flagged in the file properties', async () => {
    const cells = barcodes(40).trim().split('\n');
    const lines = [
      ['gene', ...cells].join('\t'),
      ...['CD3D', 'CD3E', 'LYZ', 'MS4A1'].map((g, i) =>
        [g, ...cells.map((_, j) => ((i + j) % 5) * 1.25)].join('\t'),
      ),
    ];
    const row = await uploadSample(s, token, 'tpm_table', [file('tpm.tsv', lines.join('\n') + '\n')]);
    const done = await waitParsed(s, token, row.id);
    expect(done.state).toBe('completed');
    expect(done.properties?.nonInteger).toBe(true);
  });

  const h5 = sharedData('scanpy_bundled/10x_v3_small/filtered_feature_bc_matrix.h5');
  it.skipIf(!h5)(
    '4. a truncated HDF5 file fails as a format error ("damaged or not HDF5"), not a retryable crash',
    async () => {
      const bytes = new Uint8Array(readFileSync(h5!)).subarray(0, 6000);
      const row = await uploadSample(s, token, 'truncated_h5', [file('sample.h5', bytes)]);
      const done: UploadRow = await waitParsed(s, token, row.id);
      expect(done.state).toBe('failed');
      expect(done.failure?.retryable).toBe(false);
      expect(done.failure?.code).toMatch(/^format\.h5\.(damaged|open_failed)$/);
      expect(done.failure?.message).toMatch(/damaged or not HDF5|not a readable HDF5/);
    },
  );
});
