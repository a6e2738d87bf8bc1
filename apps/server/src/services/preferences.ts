import {
  userPreferences,
  type UserPreferences,
  type UserPreferencesPatch,
} from '@cellcloud/contracts/preferences';
import type { Db } from '../db/client';
import { preferencesRepo } from '../db/repos/preferences';

/** Per-user interface preferences (contracts/preferences.ts); unknown stored keys are dropped. */
export async function getPreferences(db: Db, userId: string): Promise<UserPreferences> {
  return userPreferences.parse((await preferencesRepo.get(db, userId)) ?? {});
}

export async function updatePreferences(
  db: Db,
  userId: string,
  patch: UserPreferencesPatch,
): Promise<UserPreferences> {
  return userPreferences.parse(await preferencesRepo.merge(db, userId, patch));
}
