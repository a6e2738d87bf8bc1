import type { JobEvent } from '@cellcloud/contracts';
import type { Db } from '../db/client';
import { analysisTasksRepo } from '../db/repos/analysis-tasks';
import { jobsRepo } from '../db/repos/jobs';
import { notificationsRepo } from '../db/repos/notifications';
import { toJobView } from './jobs-view';

type Listener = (e: JobEvent) => void;

/**
 * Live job progress and notification counts for the browser (SSE). Workers may run in other
 * processes, so the hub watches the database: while anyone listens it polls for job rows and
 * notifications changed since its last look (indexed `updated_at` / `created_at`) and fans the
 * changes out to the listeners of their owner.
 */
export class JobEventsHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private timer: NodeJS.Timeout | undefined;
  private since = new Date().toISOString().replace('Z', '000Z');
  private polling = false;

  constructor(
    private readonly db: Db,
    private readonly intervalMs = 500,
  ) {}

  subscribe(userId: string, fn: Listener): () => void {
    let set = this.listeners.get(userId);
    if (!set) this.listeners.set(userId, (set = new Set()));
    set.add(fn);
    this.ensureTimer();
    return () => {
      set!.delete(fn);
      if (!set!.size) this.listeners.delete(userId);
      if (!this.listeners.size) this.stopTimer();
    };
  }

  private ensureTimer() {
    if (this.timer) return;
    this.since = new Date(Date.now() - 1000).toISOString().replace('Z', '000Z');
    this.timer = setInterval(() => void this.poll(), this.intervalMs);
    this.timer.unref();
  }

  private stopTimer() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One look at the database; exported for tests through `pollNow`. */
  async pollNow(): Promise<void> {
    return this.poll();
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const since = this.since;
      const rows = await jobsRepo.changedSince(this.db, since);
      const users = await notificationsRepo.usersSince(this.db, since);
      const tasks = await analysisTasksRepo.changedSince(this.db, since);
      let latest = since;
      for (const r of rows) {
        if (r.ts > latest) latest = r.ts;
        this.emit(r.user_id, { type: 'job', job: toJobView(r) });
      }
      for (const t of tasks) {
        if (t.ts > latest) latest = t.ts;
        this.emit(t.user_id, {
          type: 'task',
          datasetId: t.dataset_id,
          taskId: t.id,
          status: t.status,
          progress: Number(t.progress),
        });
      }
      for (const u of users) {
        if (u.ts > latest) latest = u.ts;
        if (this.listeners.has(u.user_id)) {
          this.emit(u.user_id, {
            type: 'notifications',
            unread: await notificationsRepo.unreadCount(this.db, u.user_id),
          });
        }
      }
      this.since = latest;
    } catch {
      // The database may be closing (shutdown) or briefly unavailable: try again next tick.
    } finally {
      this.polling = false;
    }
  }

  /** Push an event to a user's listeners right away (e.g. a count change by this process). */
  emit(userId: string, e: JobEvent) {
    for (const fn of this.listeners.get(userId) ?? []) fn(e);
  }

  close() {
    this.stopTimer();
    this.listeners.clear();
  }
}
