import type { AppContext } from '../context';
import { downloadsRepo } from '../db/repos/downloads';

/**
 * Expires approved downloads whose validity ended by `now`: deletes the converted file (it stops
 * counting against the quota), marks the request expired and notifies the user. Run by every
 * worker periodically (src/jobs/runner.ts); safe to run concurrently (each row expires once).
 */
export async function expireDownloads(ctx: AppContext, now = new Date()): Promise<number> {
  let n = 0;
  for (const r of await downloadsRepo.due(ctx.db, now)) {
    if (r.file_key) await ctx.storage.delete(`downloads/${r.id}/`);
    if (await downloadsRepo.expire(ctx.db, r.id)) {
      n++;
      await ctx.notifications.create(r.user_id, 'download.expired', { name: r.file_name });
    }
  }
  return n;
}
