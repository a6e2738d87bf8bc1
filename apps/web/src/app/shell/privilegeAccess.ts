import type { PermissionKey, PrivilegeEntry } from '@cellcloud/contracts/privileges';

/** A permission is usable when the user's list has it neither disabled nor hidden. */
export function canUse(privileges: readonly PrivilegeEntry[], key: PermissionKey): boolean {
  const e = privileges.find((p) => p.permission === key);
  return e !== undefined && !e.disabled && !e.hidden;
}
