import type { AnalysisParams } from '@cellcloud/contracts';
import type { Config } from '../config';
import { openStorage } from '../storage';
import type { Storage } from '../storage/storage';
import type { ChildMessage, ChildTask } from './runner-child-process';

/**
 * Entry of the analysis child process (forked by runner-child-process.ts). Receives one task,
 * reads the canonical datasets from storage, calls the engine and writes the outputs to the
 * task's staging prefix; reports progress and the outcome over IPC. The engine API is looked up
 * at run time so a missing function gives a clear error instead of a crash.
 */
interface EngineApi {
  runAnalysis?: (samples: unknown[], params: unknown, onProgress: (p: { fraction: number; step: string; message?: string }) => void) => Promise<unknown>;
  writeOutputs?: (result: unknown, sink: { write(rel: string, bytes: Uint8Array): Promise<void> }) => Promise<unknown>;
}

const send = (m: ChildMessage) => process.send?.(m);

async function loadSamples(storage: Storage, samples: { name: string; datasetKey: string; species?: string }[]) {
  const { readDataset } = await import('@cellcloud/formats');
  const { storageSource } = await import('./dataset.ingest');
  const out = [];
  for (const s of samples) {
    const st = await storage.stat(s.datasetKey);
    if (!st) throw new Error(`The dataset of sample "${s.name}" is missing from storage; re-initiate from upload.`);
    const dataset = await readDataset({ name: s.name, entries: [storageSource(storage, s.datasetKey, 'counts.h5ad', st.size)] });
    out.push({ name: s.name, dataset, ...(s.species ? { species: s.species } : {}) });
  }
  return out;
}

/**
 * The engine, imported by name at run time (its public API is checked by `need`): the package
 * index, else its `run-analysis` / `write-outputs` modules (as the engine CLI uses them).
 */
const ENGINE_MODULES = ['@cellcloud/engine', '@cellcloud/engine/run-analysis', '@cellcloud/engine/write-outputs'];

async function engine(): Promise<EngineApi> {
  const api: EngineApi = {};
  for (const m of ENGINE_MODULES) {
    const mod = (await import(m).catch(() => ({}))) as EngineApi;
    api.runAnalysis ??= mod.runAnalysis;
    api.writeOutputs ??= mod.writeOutputs;
  }
  return api;
}

function need<K extends keyof EngineApi>(api: EngineApi, k: K): NonNullable<EngineApi[K]> {
  const fn = api[k];
  if (typeof fn !== 'function') throw new Error(`The analysis engine does not provide ${k}() (packages/engine/src/index.ts).`);
  return fn as NonNullable<EngineApi[K]>;
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
  const api = await engine();
  need(api, 'runAnalysis');
  need(api, 'writeOutputs');
  send({ type: 'progress', fraction: 0.01, step: 'inputs' });
  const samples = await loadSamples(storage, task.samples.map((s) => ({ ...s, species: task.species })));
  const result = await need(api, 'runAnalysis')(samples, task.params, (p) => send({ type: 'progress', fraction: 0.02 + 0.88 * p.fraction, step: p.step }));
  send({ type: 'progress', fraction: 0.9, step: 'write' });
  await need(api, 'writeOutputs')(result, { write: (rel, bytes) => storage.put(`${task.outPrefix}${rel}`, bytes) });
  return undefined;
}

process.once('message', (m: { task: ChildTask; config: Config }) => {
  run(m.task, m.config).then(
    (result) => send({ type: 'done', result }),
    (e: unknown) => send({ type: 'error', message: e instanceof Error ? e.message : String(e), code: (e as { code?: string })?.code }),
  );
});
process.on('disconnect', () => process.exit(0));
