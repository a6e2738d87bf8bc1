import type { AuthUser } from '../../context';
import { AppError } from '../../errors';

/** Reading or analysing the public database needs "integrate SynEcoSys data" or "integrate local and SynEcoSys". */
export function assertPublicAccess(u: AuthUser): void {
  const can = (k: string) => u.privileges.has(k) && !u.blockedPrivileges.has(k);
  if (!can('integrateSynEcoSysData') && !can('integrateLocalAndSynEcoSys'))
    throw new AppError('PRIVILEGE_REQUIRED');
}
