import type { AnalysisParams } from '@cellcloud/contracts';
import { runAnalysis, writeOutputs } from '@cellcloud/engine';
import type { Config } from '../config';
import { openStorage } from '../storage';
import type { Storage } from '../storage/storage';
import type { ChildMessage, ChildTask } from './runner-child-process';

/**
 * Entry of the analysis child process (forked by runner-child-process.ts). Receives one task,
 * reads the canonical datasets from storage, calls the engine and writes the outputs to the
 * task's staging prefix; reports progress and the outcome over IPC.
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
  const result = await runAnalysis(samples, task.params, (p) =>
    send({ type: 'progress', fraction: 0.02 + 0.88 * p.fraction, step: p.step }),
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
