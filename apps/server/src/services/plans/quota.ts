import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { plansRepo } from '../../db/repos/plans';

/**
 * Storage quota of a user in bytes: the plan's `storage_quota_bytes`, else the default plan's,
 * else the instance default STORAGE_QUOTA_GB. Unknown user → the instance default.
 * (Used by uploads and analyses to refuse work when storage is full.)
 */
export async function quotaFor(
  db: Db,
  config: Pick<Config, 'storageQuotaBytes'>,
  userId: string,
): Promise<number> {
  const r = await plansRepo.quotaOfUser(db, userId);
  return r.quota ?? config.storageQuotaBytes;
}
