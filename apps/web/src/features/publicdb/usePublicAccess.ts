import { useAccountInfo } from '../../api/account';
import { canUse } from '../../app/shell/privilegeAccess';

/**
 * What the signed-in user may do with the public (SynEcoSys) database: read it (either integrate
 * permission, as the server's access check), and the display switches that show it on the home
 * page and filter My Analyses. All false while account info loads or when signed out.
 */
export function usePublicAccess() {
  const info = useAccountInfo().data;
  const privileges = info?.privileges ?? [];
  const canRead =
    canUse(privileges, 'integrateSynEcoSysData') || canUse(privileges, 'integrateLocalAndSynEcoSys');
  return {
    /** Account info has arrived (before, every flag is false without meaning "no access"). */
    loaded: !!info,
    canRead,
    homeSearch: canRead && (info?.switches.homeSearches ?? false),
    onlyIntegrated: canRead && (info?.switches.onlyIntegratedSynEcoSysDatasets ?? false),
  };
}
