import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import type { FirstFrame } from '../viewer/firstFrame';
import { parseManifest } from './manifest';
import type { EmbeddingResult, ObsColumn, WorkerEnvelope, WorkerReply, WorkerRequest, WorkerResults } from './protocol';

/** Base URL of a result's artifacts (served with Range support by the explore routes). */
export function artifactBaseUrl(datasetId: string): string {
  return `/api/user_datasets/${encodeURIComponent(datasetId)}/artifacts/`;
}

export class ArtifactRequestError extends Error {
  override name = 'ArtifactRequestError';
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
  }
}

/** Small LRU for decoded gene columns (a 1M-cell gene is 4 MB). */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly capacity: number) {}
  get(k: string): V | undefined {
    const v = this.map.get(k);
    if (v !== undefined) {
      this.map.delete(k);
      this.map.set(k, v);
    }
    return v;
  }
  set(k: string, v: V): void {
    this.map.delete(k);
    this.map.set(k, v);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
  }
}

/**
 * Page-side handle on one result's artifacts. All fetching/decoding runs in a Web Worker; decoded
 * typed arrays are transferred (not copied) and cached here, ready to hand to the viewer.
 */
export class ArtifactClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly memo = new Map<string, Promise<unknown>>();
  private readonly genes = new Lru<Promise<WorkerResults['gene']>>(24);

  constructor(baseUrl: string, token: string | null) {
    this.worker = new Worker(new URL('./artifactWorker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (ev: MessageEvent<WorkerReply>) => {
      const p = this.pending.get(ev.data.id);
      if (!p) return;
      this.pending.delete(ev.data.id);
      if (ev.data.ok) p.resolve(ev.data.result);
      else p.reject(new ArtifactRequestError(ev.data.error, ev.data.status));
    };
    void this.call({ op: 'init', baseUrl, token });
  }

  /** The worker reads the manifest unchecked: every request but these waits for the page's check. */
  private call<K extends WorkerRequest['op']>(req: Extract<WorkerRequest, { op: K }>): Promise<WorkerResults[K]> {
    if (req.op === 'init' || req.op === 'manifest') return this.post(req);
    return this.manifest().then(() => this.post(req));
  }

  private post<K extends WorkerRequest['op']>(req: Extract<WorkerRequest, { op: K }>): Promise<WorkerResults[K]> {
    const id = this.nextId++;
    return new Promise<WorkerResults[K]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, req } satisfies WorkerEnvelope);
    });
  }

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make();
      p.catch(() => this.memo.delete(key));
      this.memo.set(key, p);
    }
    return p;
  }

  manifest(): Promise<ArtifactManifest> {
    return this.once('manifest', () => this.post({ op: 'manifest' }).then(parseManifest));
  }
  /**
   * The manifest read again: the server adds the per-cell columns and layouts of the result's
   * completed tasks to it. What was read before stays cached (an embedding's file never changes).
   */
  refreshManifest(): Promise<ArtifactManifest> {
    const p = this.post({ op: 'manifest', refresh: true }).then(parseManifest);
    this.memo.set('manifest', p);
    p.catch(() => this.memo.delete('manifest'));
    return p;
  }
  /**
   * `frame`: the worker also splats the positions as they arrive into the first frame of a canvas of
   * that size (firstFrame.ts); given on the first request of an embedding only.
   */
  embedding(name: string, frame?: FirstFrame): Promise<EmbeddingResult> {
    return this.once(`emb:${name}`, () => this.call({ op: 'embedding', name, ...(frame ? { frame } : {}) }));
  }
  obs(key: string): Promise<ObsColumn> {
    return this.once(`obs:${key}`, () => this.call({ op: 'obs', key }));
  }
  geneCatalog(): Promise<WorkerResults['genes']> {
    return this.once('genes', () => this.call({ op: 'genes' }));
  }
  json<T = unknown>(path: string): Promise<T> {
    return this.once(`json:${path}`, () => this.call({ op: 'json', path }) as Promise<T>);
  }
  /**
   * One gene's values, with the bytes of its chunk (for benchmarks). `exact: false` is for colouring
   * only: from a format-2 result it downloads the 16-bit colour levels (each value within
   * max / 131070 of the exact one; max exact), not the exact values (docs/artifacts.md#format-2).
   */
  gene(layer: 'counts' | 'normalized', gene: number, exact = true): Promise<WorkerResults['gene']> {
    const key = `${layer}:${gene}:${exact ? 'exact' : 'colour'}`;
    let p = this.genes.get(key) ?? (exact ? undefined : this.genes.get(`${layer}:${gene}:exact`));
    if (!p) {
      p = this.call({ op: 'gene', layer, gene, exact });
      p.catch(() => undefined);
      this.genes.set(key, p);
    }
    return p;
  }
  dispose(): void {
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(new ArtifactRequestError('artifact client closed', undefined));
    this.pending.clear();
  }
}
