/** Business constants of docs/product/limits.md, in one place for server, engine and web. */
export const LIMITS = {
  updateLogPageSize: 10,
  drawerWidth: 350,
  notificationBadgeCap: 99,
  logoutDelayMs: 700,
  logoutSecondDelayMs: 300,
  subclusterMinCells: 100,
  degMinCells: 3,
  contaminationThreshold: 0.25,
  degFilter: { log2fc: 0.25, padj: 0.05, pct: 0.1 },
  loginLogSize: 10,
  requestTimeoutMs: 600_000,
  chunkLoadTimeoutMs: 120_000,
  minCellsPerSample: 30, // exclusive: a sample needs MORE than 30 cells
  maxCellsPerSample: 100_000, // exclusive: FEWER than 100,000 cells
  ambientMinCells: 100, // exclusive: more than 100 cells
  scaleHvgOnlyAboveCells: 500_000,
  emailCodeValidMs: 2 * 60 * 60 * 1000,
  convertedDownloadValidDays: 7,
  passwordMin: 6,
  passwordMax: 16,
  usernameMin: 3,
  usernameMax: 50,
  pngExportMinHeight: 4200,
  cellInteractionTopPairs: 30,
} as const;

export const DEFAULT_FILTERS = {
  geneRange: [200, 5000] as [number, number],
  umiRange: [0, 30000] as [number, number],
  mitochondrial: 50,
  ribosomal: 50,
  state: 'recommended' as const,
};

export const MITO_CANDIDATES = [5, 10, 15, 20, 30, 50] as const;

/** Local-storage keys are prefixed (docs/product/limits.md#local-storage). */
export const STORAGE_PREFIX = 'cellcloud.';
