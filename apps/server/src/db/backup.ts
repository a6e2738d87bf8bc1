import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { claimEmbeddedDb } from './embedded-lock';

/**
 * Backup and restore of an embedded installation (issue 12): the PGlite database and the local
 * storage of CELLCLOUD_DATA_DIR. The server must be stopped (PGlite is one process). A backup is
 * a folder: `database.tar.gz` (PGlite's own dump of its data directory), `storage/` (a copy of
 * the stored files) and `backup.json`. With DATABASE_URL use pg_dump / pg_restore, and copy the
 * storage folder or the S3 bucket (README, "Backup and restore").
 */
export interface BackupInfo {
  createdAt: string;
  database: 'pglite';
  databaseBytes: number;
  storageFiles: number;
  storageBytes: number;
}

function tree(dir: string): { files: number; bytes: number } {
  if (!existsSync(dir)) return { files: 0, bytes: 0 };
  let files = 0;
  let bytes = 0;
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) {
      const t = tree(p);
      files += t.files;
      bytes += t.bytes;
    } else {
      files++;
      bytes += st.size;
    }
  }
  return { files, bytes };
}

const emptyOrMissing = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;

/** Writes a backup of `dataDir` (embedded database + local storage) into the new folder `dest`. */
export async function backupDataDir(dataDir: string, dest: string): Promise<BackupInfo> {
  const pgDir = path.join(dataDir, 'pg');
  if (emptyOrMissing(pgDir)) throw new Error(`no embedded database under ${pgDir}`);
  if (!emptyOrMissing(dest)) throw new Error(`the backup folder ${dest} is not empty`);
  mkdirSync(dest, { recursive: true });
  const release = claimEmbeddedDb(pgDir); // refuses while a server has the database open
  let dump: Blob;
  try {
    const pg = await PGlite.create({ dataDir: pgDir });
    try {
      dump = await pg.dumpDataDir('gzip');
    } finally {
      await pg.close();
    }
  } finally {
    release();
  }
  const db = new Uint8Array(await dump.arrayBuffer());
  writeFileSync(path.join(dest, 'database.tar.gz'), db);
  const storage = path.join(dataDir, 'storage');
  if (existsSync(storage)) cpSync(storage, path.join(dest, 'storage'), { recursive: true });
  const t = tree(path.join(dest, 'storage'));
  const info: BackupInfo = {
    createdAt: new Date().toISOString(),
    database: 'pglite',
    databaseBytes: db.length,
    storageFiles: t.files,
    storageBytes: t.bytes,
  };
  writeFileSync(path.join(dest, 'backup.json'), JSON.stringify(info, null, 2));
  return info;
}

/** Restores a backup folder into `dataDir`, which must not hold a database yet. */
export async function restoreDataDir(src: string, dataDir: string): Promise<BackupInfo> {
  const info = JSON.parse(readFileSync(path.join(src, 'backup.json'), 'utf8')) as BackupInfo;
  const pgDir = path.join(dataDir, 'pg');
  if (!emptyOrMissing(pgDir))
    throw new Error(`${pgDir} already holds a database: restore into a new CELLCLOUD_DATA_DIR`);
  mkdirSync(pgDir, { recursive: true });
  const dump = new Blob([readFileSync(path.join(src, 'database.tar.gz'))]);
  const pg = await PGlite.create({ dataDir: pgDir, loadDataDir: dump });
  try {
    await pg.query('SELECT 1');
  } finally {
    await pg.close();
  }
  if (existsSync(path.join(src, 'storage')))
    cpSync(path.join(src, 'storage'), path.join(dataDir, 'storage'), { recursive: true });
  return info;
}
