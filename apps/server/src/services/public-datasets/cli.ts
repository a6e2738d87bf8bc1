import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Db } from '../../db/client';
import { publicDatasetsRepo } from '../../db/repos/public-datasets';
import type { Storage } from '../../storage/storage';
import { ingestPublicH5ad } from './ingest';

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
  const bytes = new Uint8Array(await readFile(target));
  const r = await ingestPublicH5ad({ db, storage }, bytes, path.basename(target), await readMetaSheet(meta!));
  return [
    `ingested public dataset ${r.id} v${r.version}: ${r.cells} cells, ${r.genes} genes; levels ${r.annotationLevels.join(', ')}`,
    ...r.warnings.map((w) => `warning: ${w}`),
  ].join('\n');
}
