import type { Config } from './config';
import type { Db } from './db/client';
import type { JobQueue } from './queue/job-queue';
import type { Storage } from './storage/storage';
import type { AccountDeps } from './services/accounts/deps';
import type { FilesDeps } from './services/files/deps';
import type { JobsDeps } from './services/jobs-wire';
import type { Mailer } from './services/mail/mailer';
import type { NotificationsService } from './services/notifications';

/** The signed-in user as routes see it (resolved from the access-token header). */
export interface AuthUser {
  id: string;
  username: string;
  isAdmin: boolean;
  /** Permission keys the user holds and may use (enabled, not hidden). */
  privileges: Set<string>;
  /** Permission keys present but disabled or hidden for this user (→ 403 on use). */
  blockedPrivileges: Set<string>;
}

/** Turns a token into a user; implemented by the accounts service. */
export interface AuthResolver {
  /** `null` = unknown token; 'expired' = known but expired or revoked. */
  resolve(token: string): Promise<AuthUser | null | 'expired'>;
}

/**
 * The services feature areas register while the context is composed (src/entry/compose.ts →
 * each area's `wire*`): typed, so no caller casts. Optional because a context may be composed
 * without an area (tests, tools).
 */
export interface Services {
  accounts?: AccountDeps;
  mail?: Mailer;
  jobs?: JobsDeps;
  files?: FilesDeps;
}

/**
 * Everything a route module or service needs, built once by the entry point (composition root)
 * and passed down explicitly. Feature areas add their services as optional fields here.
 */
export interface AppContext {
  config: Config;
  db: Db;
  storage: Storage;
  auth: AuthResolver;
  /**
   * The job queue, made by the composition root before any area is wired and started by the jobs
   * area (`wireJobs`): services enqueue through it, the health route checks it.
   */
  queue: JobQueue;
  /** The users' notifications (made by the composition root; jobs and services create them). */
  notifications: NotificationsService;
  /** Services registered by feature areas (typed; see Services). */
  services: Services;
}
