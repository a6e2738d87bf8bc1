import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../config';
import { alive } from '../../db/embedded-lock';

/**
 * The admin tool and a running server on the embedded database (PGlite: one process at a time).
 * At start the server writes `CELLCLOUD_DATA_DIR/admin-control.json` (owner-only: whoever may read
 * the data directory may administer anyway) with its local address and a fresh secret; the admin
 * tool finds it, and sends its command to `POST /api/admin/cli` with the secret instead of opening
 * the database. The file is removed when the server exits; a new start writes a new secret.
 */
export const CONTROL_FILE = 'admin-control.json';
export const CONTROL_HEADER = 'x-admin-secret';
/** The route the admin tool posts its command to (http/routes/admin-cli.ts). */
export const ADMIN_CLI_PATH = '/api/admin/cli';

export interface AdminControl {
  pid: number;
  host: string;
  url: string;
  secret: string;
}

let current: string | undefined;

/** Writes the control file for this server (embedded database only); returns its remover. */
export function publishAdminControl(config: Config, port: number): () => void {
  if (config.databaseUrl) return () => {};
  const host = !config.host || config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const me: AdminControl = {
    pid: process.pid,
    host: os.hostname(),
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    secret: randomBytes(32).toString('hex'),
  };
  const file = path.join(config.dataDir, CONTROL_FILE);
  writeFileSync(file, JSON.stringify(me), { mode: 0o600 });
  current = me.secret;
  const remove = () => {
    process.off('exit', remove);
    if (current === me.secret) current = undefined;
    try {
      if ((JSON.parse(readFileSync(file, 'utf8')) as AdminControl).pid === process.pid) rmSync(file);
    } catch {
      /* already gone */
    }
  };
  process.on('exit', remove);
  return remove;
}

/** Does `given` match the secret this server published? (false when it published none) */
export function isAdminControlSecret(given: unknown): boolean {
  if (!current || typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(current);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The control file of a live server on this machine holding `dataDir`, if any. */
export function readAdminControl(dataDir: string): AdminControl | undefined {
  let c: AdminControl;
  try {
    c = JSON.parse(readFileSync(path.join(dataDir, CONTROL_FILE), 'utf8')) as AdminControl;
  } catch {
    return undefined;
  }
  if (c.host !== os.hostname() || !Number.isInteger(c.pid) || c.pid === process.pid) return undefined;
  return alive(c.pid) ? c : undefined;
}

/** What `npm start` prints while the installation has no administrator (README "Accounts and plans"). */
export function firstAdminHint(embedded: boolean): string {
  return [
    'No administrator yet. Create the first one (works while this server runs):',
    "  npm run admin -- create-admin --username admin --email admin@example.org --password 'Admin123'",
    '  or sign up in the browser, then: npm run admin -- grant-admin <your user name or e-mail>',
    ...(embedded ? [] : ['  (with DATABASE_URL the admin tool needs the same DATABASE_URL)']),
  ].join('\n');
}
