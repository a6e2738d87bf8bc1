import { readFile, stat } from 'node:fs/promises';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { readDataset } from '@cellcloud/formats';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Db } from '../../db/client';
import { publicDatasetsRepo } from '../../db/repos/public-datasets';
import type { Storage } from '../../storage/storage';
import { ingestPublicH5ad } from './ingest';
import { ingestPublicCounts } from './ingest-counts';

/** Reads a metadata sheet: JSON (`.json`) or YAML (anything else). */
export async function readMetaSheet(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  return file.toLowerCase().endsWith('.json') ? JSON.parse(text) : parseYaml(text);
}

/** `admin ingest-public` / `admin withdraw-public` (administrators run the admin tool). */
export async function ingestPublicCli(
  db: Db,
  storage: Storage,
  command: string,
  target: string,
  meta?: string,
): Promise<string> {
  if (command === 'withdraw-public') {
    if (!(await publicDatasetsRepo.withdraw(db, target)))
      throw new Error(`no visible public dataset "${target}"`);
    return `public dataset ${target} withdrawn (hidden; analyses that used it keep their results)`;
  }
  const sheet = (await readMetaSheet(meta!)) as Record<string, unknown>;
  // (b) counts + metadata sheet: a folder (10x), or a sheet naming a cells table or columns
  const counts = (await stat(target)).isDirectory() || 'cells' in sheet || 'columns' in sheet;
  const r = counts
    ? await ingestCountsFile(db, storage, target, meta!, sheet)
    : await ingestPublicH5ad(
        { db, storage },
        new Uint8Array(await readFile(target)),
        path.basename(target),
        sheet,
      );
  return [
    `ingested public dataset ${r.id} v${r.version}: ${r.cells} cells, ${r.genes} genes; levels ${r.annotationLevels.join(', ')}`,
    ...r.warnings.map((w) => `warning: ${w}`),
  ].join('\n');
}

/** Ingest (b): the counts file or folder read like an upload, the cells table relative to the sheet. */
async function ingestCountsFile(
  db: Db,
  storage: Storage,
  target: string,
  metaFile: string,
  sheet: Record<string, unknown>,
) {
  const d = await readDataset(await pathBundle(target));
  const cells =
    typeof sheet.cells === 'string' ? path.resolve(path.dirname(metaFile), sheet.cells) : undefined;
  const table = cells
    ? { name: path.basename(cells), bytes: new Uint8Array(await readFile(cells)) }
    : undefined;
  return ingestPublicCounts({ db, storage }, d, sheet, table);
}
