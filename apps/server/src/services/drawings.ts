import { DRAWING_MAX_BYTES, type Drawing, type DrawingApp } from '@cellcloud/contracts';
import type { Db } from '../db/client';
import { drawingsRepo } from '../db/repos/drawings';
import { AppError } from '../errors';

/** Per-user whiteboard scenes of /app1 (contracts/drawings.ts). */
export async function getDrawing(db: Db, userId: string, app: DrawingApp): Promise<Drawing> {
  const row = await drawingsRepo.get(db, userId, app);
  if (!row) return { elements: [], appState: {}, files: {}, updatedAt: null };
  const s = row.scene as Partial<Drawing>;
  return {
    elements: s.elements ?? [],
    appState: s.appState ?? {},
    files: s.files ?? {},
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export async function saveDrawing(
  db: Db,
  userId: string,
  app: DrawingApp,
  scene: Omit<Drawing, 'updatedAt'>,
): Promise<Drawing> {
  const size = Buffer.byteLength(JSON.stringify(scene));
  if (size > DRAWING_MAX_BYTES) {
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    throw new AppError(
      'VALIDATION_FAILED',
      { size: mb(size), limit: mb(DRAWING_MAX_BYTES) },
      'drawings.tooLarge',
    );
  }
  const at = await drawingsRepo.put(db, userId, app, scene);
  return { ...scene, updatedAt: new Date(at).toISOString() };
}
