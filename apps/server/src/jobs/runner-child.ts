import type { AnalysisParams } from '@cellcloud/contracts';
import type { ChildAnalysisParams } from '@cellcloud/contracts/analysis-params';
import { runAnalysis, runDegTask, runSubcluster, writeOutputs } from '@cellcloud/engine';
import type { Config } from '../config';
import { openStorage } from '../storage';
import type { Storage } from '../storage/storage';
import type { ChildMessage, ChildTask } from './runner-child-process';

/**
 * Entry of the analysis child process (forked by runner-child-process.ts). Receives one task,
 * reads its inputs from storage (the canonical datasets, or for `deg`/`subcluster` a stored
 * result's `analysis.h5ad` and the cell codes/indices the request stored), calls the engine and
 * writes the outputs to the task's key or staging prefix; reports progress and the outcome over IPC.
 */
const send = (m: ChildMessage) => process.send?.(m);

async function loadSamples(
  storage: Storage,
  samples: { name: string; datasetKey: string; species?: string }[],
) {
  const { readDataset } = await import('@cellcloud/formats');
  const { storageSource } = await import('./dataset.ingest');
  const out = [];
  for (const s of samples) {
    const st = await storage.stat(s.datasetKey);
    if (!st)
      throw new Error(`The dataset of sample "${s.name}" is missing from storage; re-initiate from upload.`);
    const dataset = await readDataset({
      name: s.name,
      entries: [storageSource(storage, s.datasetKey, 'counts.h5ad', st.size)],
    });
    out.push({ name: s.name, dataset, ...(s.species ? { species: s.species } : {}) });
  }
  return out;
}

/** A stored typed array (Int32 codes, Uint32 cell indices), copied so it is aligned. */
async function readWords<T extends Int32Array | Uint32Array>(
  storage: Storage,
  key: string,
  Kind: new (n: number) => T,
): Promise<T> {
  const b = await storage.getBytes(key);
  const out = new Kind(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}

async function readStoredResult(storage: Storage, key: string) {
  const { readH5adBytes } = await import('@cellcloud/formats/read-h5ad');
  return readH5adBytes(await storage.getBytes(key), 'analysis.h5ad');
}

async function runDeg(storage: Storage, task: Extract<ChildTask, { kind: 'deg' }>): Promise<void> {
  send({ type: 'progress', fraction: 0.02, step: 'inputs' });
  const ds = await readStoredResult(storage, task.h5adKey);
  const codes = await readWords(storage, task.codesKey, Int32Array);
  if (codes.length !== ds.counts.nCells)
    throw new Error(`the grouping has ${codes.length} cells, the stored result ${ds.counts.nCells}`);
  send({ type: 'progress', fraction: 0.2, step: 'deg' });
  let rows;
  if (task.mode === 'cluster-markers') {
    rows = runDegTask(ds.counts, ds.genes.symbols, { mode: 'cluster-markers', codes, labels: task.labels }, (f) =>
      send({ type: 'progress', fraction: 0.2 + 0.7 * f, step: 'deg' }),
    );
  } else {
    const a: number[] = [];
    const b: number[] = [];
    codes.forEach((k, c) => (k === 0 ? a.push(c) : k === 1 ? b.push(c) : undefined));
    rows = runDegTask(ds.counts, ds.genes.symbols, {
      mode: 'compare',
      groupA: a,
      groupB: b,
      names: { a: task.labels[0] ?? 'A', b: task.labels[1] ?? 'B' },
    });
  }
  send({ type: 'progress', fraction: 0.95, step: 'write' });
  await storage.put(task.outKey, new TextEncoder().encode(JSON.stringify(rows)));
}

async function runSubclusterTask(
  storage: Storage,
  task: Extract<ChildTask, { kind: 'subcluster' }>,
): Promise<void> {
  const ds = await readStoredResult(storage, task.h5adKey);
  const cells = await readWords(storage, task.cellsKey, Uint32Array);
  const result = await runSubcluster(
    {
      name: task.name,
      counts: ds.counts,
      genes: ds.genes,
      barcodes: ds.cells.barcodes,
      cells,
      parentParams: task.parentParams,
      child: task.child as Partial<ChildAnalysisParams>,
    },
    (p) => send({ type: 'progress', fraction: 0.02 + 0.88 * p.fraction, step: p.step }),
  );
  send({ type: 'progress', fraction: 0.9, step: 'write' });
  await writeOutputs(result, { write: (rel, bytes) => storage.put(`${task.outPrefix}${rel}`, bytes) });
}

async function run(task: ChildTask, config: Config): Promise<unknown> {
  if (task.kind === 'noop') {
    const steps = 10;
    for (let i = 1; i <= steps; i++) {
      await new Promise((r) => setTimeout(r, task.sleepMs / steps));
      send({ type: 'progress', fraction: i / steps, step: 'noop' });
    }
    return { ok: true };
  }
  const storage = await openStorage(config);
  if (task.kind === 'deg') return runDeg(storage, task);
  if (task.kind === 'subcluster') return runSubclusterTask(storage, task);
  if (task.kind === 'preprocess') {
    send({ type: 'progress', fraction: 0.05, step: 'inputs' });
    const samples = await loadSamples(storage, task.samples);
    send({ type: 'progress', fraction: 0.4, step: 'qc' });
    const { evaluateCellFiltering } = await import('./analysis.preprocess.compute');
    const result = evaluateCellFiltering(samples, task.params as AnalysisParams);
    await storage.put(task.outKey, new TextEncoder().encode(JSON.stringify(result)));
    return undefined;
  }
  send({ type: 'progress', fraction: 0.01, step: 'inputs' });
  const samples = await loadSamples(
    storage,
    task.samples.map((s) => ({ ...s, species: task.species })),
  );
  const result = await runAnalysis(
    samples,
    task.params,
    (p) => send({ type: 'progress', fraction: 0.02 + 0.88 * p.fraction, step: p.step }),
    { releaseSamples: true },
  );
  send({ type: 'progress', fraction: 0.9, step: 'write' });
  await writeOutputs(result, { write: (rel, bytes) => storage.put(`${task.outPrefix}${rel}`, bytes) });
  return undefined;
}

process.once('message', (m: { task: ChildTask; config: Config }) => {
  run(m.task, m.config).then(
    (result) => send({ type: 'done', result }),
    (e: unknown) =>
      send({
        type: 'error',
        message: e instanceof Error ? e.message : String(e),
        code: (e as { code?: string })?.code,
        params: (e as { params?: Record<string, unknown> })?.params,
      }),
  );
});
process.on('disconnect', () => process.exit(0));
