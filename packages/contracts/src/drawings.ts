import { z } from 'zod';

/**
 * Per-user drawings of the embedded whiteboard at /app1 (Excalidraw).
 * GET /api/user/drawings/:app (auth) → Drawing, or an empty scene when none is saved yet.
 * PUT /api/user/drawings/:app (auth) with DrawingSave → Drawing. Scene JSON is opaque to the
 * server; the body limit is DRAWING_MAX_BYTES.
 */
export const drawingsPath = (app: DrawingApp) => `/api/user/drawings/${app}`;
export const drawingApps = ['app1'] as const;
export const drawingApp = z.enum(drawingApps);
export type DrawingApp = z.infer<typeof drawingApp>;
export const DRAWING_MAX_BYTES = 5 * 1024 * 1024;

export const drawingSave = z
  .object({
    elements: z.array(z.record(z.string(), z.unknown())),
    /** Only the persistable part of the app state (view background, grid, …). */
    appState: z.record(z.string(), z.unknown()),
    /** Embedded images keyed by file id (data URLs). */
    files: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type DrawingSave = z.input<typeof drawingSave>;

export const drawing = z.object({
  elements: z.array(z.record(z.string(), z.unknown())),
  appState: z.record(z.string(), z.unknown()),
  files: z.record(z.string(), z.unknown()),
  /** null when nothing was saved yet. */
  updatedAt: z.string().nullable(),
});
export type Drawing = z.infer<typeof drawing>;
