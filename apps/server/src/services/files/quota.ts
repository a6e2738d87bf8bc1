import type { AppContext } from '../../context';
import { uploadBytesOfUser } from '../../db/repos/uploads';
import { AppError } from '../../errors';
import { quotaFor } from '../plans/quota';

/** The user's quota: their plan's storage quota, else STORAGE_QUOTA_GB (accounts/plans area). */
export async function quotaBytesOf(ctx: AppContext, userId: string): Promise<number> {
  return quotaFor(ctx.db, ctx.config, userId);
}

/** Bytes the user occupies: uploaded originals plus their canonical datasets. */
export async function storageUsedBytes(ctx: AppContext, userId: string): Promise<number> {
  return uploadBytesOfUser(ctx.db, userId);
}

/**
 * Throws STORAGE_FULL (docs/product/errors.md "Storage full") when `extraBytes` more would exceed the user's
 * quota. Uploads call it before accepting files; analyses call it before starting.
 */
export async function assertStorageAvailable(ctx: AppContext, userId: string, extraBytes = 0): Promise<void> {
  const [used, quota] = await Promise.all([storageUsedBytes(ctx, userId), quotaBytesOf(ctx, userId)]);
  if (used + extraBytes > quota) throw new AppError('STORAGE_FULL', { usedBytes: used, quotaBytes: quota });
}
