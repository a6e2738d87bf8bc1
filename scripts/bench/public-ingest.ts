/**
 * `npx tsx scripts/bench/public-ingest.ts <cells> [--whole]` — the admin tool's CELLxGENE ingest
 * (issue 33) of a synthetic file of <cells> cells (scripts/synth/cellxgene.ts, generated once and
 * cached in the temporary folder; not counted): standardization + staging of counts.h5ad and
 * manifest.json into a local storage folder (removed after), streamed (ingest-streamed.ts, any
 * size) or with `--whole` read whole as below the threshold. Run it in its own process: prints
 * wall and CPU seconds, peak RSS (maxRSS of the process) and the load average as one JSON line.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { standardizePublicH5ad } from '../../apps/server/src/services/public-datasets/ingest';
import { standardizePublicH5adFile } from '../../apps/server/src/services/public-datasets/ingest-streamed';
import { catalogueEntry, stagePublicCounts } from '../../apps/server/src/services/public-datasets/store';
import { localStorage } from '../../apps/server/src/storage/local';
import { ensureCellxgene } from '../synth/cellxgene';

const cells = Number(process.argv[2]);
if (!Number.isInteger(cells) || cells < 1) throw new Error('usage: public-ingest.ts <cells> [--whole]');
const whole = process.argv.includes('--whole');
const file = await ensureCellxgene(cells);
const meta = { id: 'synth', title: 'synthetic CELLxGENE file', licence: 'CC-BY-4.0' };
const root = mkdtempSync(path.join(tmpdir(), 'cellcloud-bench-public-'));
const t0 = performance.now();
const cpu0 = process.cpuUsage();
try {
  const std = whole
    ? await standardizePublicH5ad(new Uint8Array(readFileSync(file)), 'synth.h5ad', meta)
    : await standardizePublicH5adFile(file, 'synth.h5ad', meta, 0);
  const entry = catalogueEntry(std);
  await stagePublicCounts(localStorage(root), 'public/synth/v1/', std);
  const cpu = process.cpuUsage(cpu0);
  console.log(
    JSON.stringify({
      path: whole ? 'whole' : 'streamed',
      cells: entry.cells,
      genes: entry.genes,
      seconds: Number(((performance.now() - t0) / 1000).toFixed(1)),
      cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(1)),
      peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
      loadavg: loadavg().map((x) => Number(x.toFixed(2))),
    }),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
