/**
 * Tolerant reader of qc.json (written by the engine: per-sample filter summary with thresholds,
 * optional doublet and ambient-RNA results). Unknown fields are kept for display as key/value rows.
 */
export interface QcSampleRow {
  sample: string;
  cellsBefore: number;
  cellsAfter: number;
  thresholds: Record<string, number>;
  failed: Record<string, number>;
}

export interface QcSummary {
  samples: QcSampleRow[];
  /** One row per sample (or a single row) of doublet detection results; empty when not run. */
  doublets: Array<Record<string, unknown>>;
  ambient: Array<Record<string, unknown>>;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : Number.NaN);

function numbers(o: unknown): Record<string, number> {
  if (!o || typeof o !== 'object') return {};
  return Object.fromEntries(
    Object.entries(o as Record<string, unknown>).filter(([, v]) => typeof v === 'number') as [
      string,
      number,
    ][],
  );
}

function objectOrNull(v: unknown): Record<string, unknown> | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function rows(v: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(v)) return v.filter((r): r is Record<string, unknown> => objectOrNull(r) !== null);
  const o = objectOrNull(v);
  return o ? [o] : [];
}

export function parseQcSummary(json: unknown): QcSummary {
  const root = objectOrNull(json) ?? {};
  const list = (root.samples ?? root.summary ?? root.filter ?? []) as unknown;
  const samples = Array.isArray(list)
    ? list.map((s, i): QcSampleRow => {
        const r = objectOrNull(s) ?? {};
        return {
          sample: typeof r.sample === 'string' ? r.sample : String(i + 1),
          cellsBefore: num(r.cellsBefore),
          cellsAfter: num(r.cellsAfter),
          thresholds: numbers(r.thresholds),
          failed: numbers(r.failed),
        };
      })
    : [];
  return {
    samples,
    doublets: rows(root.doublets ?? root.doublet ?? root.doubletDetection),
    ambient: rows(root.ambient ?? root.ambientRna ?? root.contamination),
  };
}

/** Per-cell QC columns in the manifest, matched by the names engines use. */
export const QC_METRICS: ReadonlyArray<{ id: 'genes' | 'umis' | 'mito' | 'ribo'; pattern: RegExp }> = [
  { id: 'genes', pattern: /^(n_genes(_by_counts)?|nFeature_RNA|nGenes|n_features)$/i },
  { id: 'umis', pattern: /^(total_counts|nCount_RNA|n_counts|nUmi|n_umi)$/i },
  {
    id: 'mito',
    pattern: /^(pct_counts_mt|pct_counts_mito|percent[._]mt|percent[._]mito|pctMito|pct_mito)$/i,
  },
  { id: 'ribo', pattern: /^(pct_counts_ribo|percent[._]ribo|pctRibo|pct_ribo)$/i },
];

export function findQcColumns(keys: string[]): Array<{ id: string; key: string }> {
  return QC_METRICS.flatMap((m) => {
    const key = keys.find((k) => m.pattern.test(k));
    return key ? [{ id: m.id, key }] : [];
  });
}
