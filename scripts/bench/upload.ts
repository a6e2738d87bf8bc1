/**
 * npm run bench:upload — upload + parse throughput of a synthetic 10x MTX (default 400 MB of
 * matrix.mtx text; BENCH_UPLOAD_MB to change) through the real API: tus upload over HTTP with
 * tus-js-client into local storage, then the background dataset.ingest job (read, properties,
 * canonical h5ad). Prints MB/s for each phase and overall.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { Upload } from 'tus-js-client';
import { FILES_API, type UploadRow } from '@cellcloud/contracts';
import { createTestServer } from '../../apps/server/test/support/harness';
import { signUp } from '../../apps/server/test/support/accounts';

const targetMb = Number(process.env.BENCH_UPLOAD_MB ?? 400);
const nGenes = 20_000;
const nCells = 10_000;

/** A deterministic integer-count matrix of about `targetMb` MB (genes × cells, sorted by cell). */
async function writeMtx(dir: string): Promise<void> {
  const bytesPerEntry = 13.4; // measured mean line length of this generator
  const nnz = Math.round((targetMb * 1e6) / bytesPerEntry);
  const perCell = Math.floor(nnz / nCells);
  const out = createWriteStream(path.join(dir, 'matrix.mtx'));
  out.write(`%%MatrixMarket matrix coordinate integer general\n%\n${nGenes} ${nCells} ${perCell * nCells}\n`);
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let c = 1; c <= nCells; c++) {
    const step = nGenes / perCell;
    const lines: string[] = [];
    for (let k = 0; k < perCell; k++) {
      const g = Math.min(nGenes, Math.floor(k * step + rnd() * step) + 1);
      lines.push(`${g} ${c} ${1 + Math.floor(rnd() * rnd() * 40)}`);
    }
    if (!out.write(lines.join('\n') + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  writeFileSync(
    path.join(dir, 'features.tsv'),
    Array.from(
      { length: nGenes },
      (_, i) => `ENSG${String(i + 1).padStart(11, '0')}\tGENE${i + 1}\tGene Expression`,
    ).join('\n') + '\n',
  );
  writeFileSync(
    path.join(dir, 'barcodes.tsv'),
    Array.from({ length: nCells }, (_, i) => `CELL${String(i + 1).padStart(8, '0')}-1`).join('\n') + '\n',
  );
}

function send(baseUrl: string, token: string, slot: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const up = new Upload(createReadStream(file), {
      endpoint: `${baseUrl}${FILES_API.tus}`,
      headers: { 'access-token': token },
      metadata: { slot, filename: path.basename(file) },
      uploadSize: statSync(file).size,
      chunkSize: 32 * 1024 * 1024,
      retryDelays: [0, 500, 2000],
      onSuccess: () => resolve(),
      onError: reject,
    });
    up.start();
  });
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-bench-upload-'));
  const s = await createTestServer();
  try {
    const t0 = Date.now();
    await writeMtx(dir);
    const names = ['matrix.mtx', 'features.tsv', 'barcodes.tsv'];
    const sizes = names.map((n) => statSync(path.join(dir, n)).size);
    const totalMb = sizes.reduce((a, b) => a + b, 0) / 1e6; // MB = 10^6 bytes
    console.log(
      `generated ${totalMb.toFixed(1)} MB (${nGenes} genes × ${nCells} cells) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    await s.listen();
    const { token } = await signUp(s);
    const created = await s.request('POST', FILES_API.uploads, {
      token,
      body: {
        sampleName: 'bench',
        kind: 'matrix',
        files: names.map((name, i) => ({ name, size: sizes[i] })),
      },
    });
    if (created.status !== 200) throw new Error(`create upload: ${created.body?.msg}`);
    const row = created.body.data as UploadRow;

    const u0 = Date.now();
    for (const [i, n] of names.entries()) await send(s.url!, token, row.files[i]!.slot, path.join(dir, n));
    const uploadS = (Date.now() - u0) / 1000;

    let done: UploadRow;
    const seen = new Set<number>();
    for (;;) {
      done = (await s.request('GET', FILES_API.upload(row.id), { token })).body.data as UploadRow;
      if (done.state === 'parsing') seen.add(Math.round(done.progress * 100));
      if (done.state === 'completed' || done.state === 'failed') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const parseS = (Date.now() - u0) / 1000 - uploadS;
    if (done.state !== 'completed') throw new Error(`parse failed: ${done.failure?.message}`);
    const p = done.properties!;
    console.log(
      `upload (tus, HTTP → local storage): ${uploadS.toFixed(1)} s  ${(totalMb / uploadS).toFixed(1)} MB/s`,
    );
    console.log(
      `parse (read + properties + h5ad):   ${parseS.toFixed(1)} s  ${(totalMb / parseS).toFixed(1)} MB/s`,
    );
    console.log(
      `upload + parse:                     ${(uploadS + parseS).toFixed(1)} s  ${(totalMb / (uploadS + parseS)).toFixed(1)} MB/s`,
    );
    console.log(`parse progress seen by the list (%): ${[...seen].join(', ')}`);
    console.log(
      `parsed: ${p.cells} cells × ${p.genes} genes, ${p.umi.total} UMIs; peak RSS ${(process.resourceUsage().maxRSS / 1024 ** 2).toFixed(2)} GB`,
    );
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
