import {
  DEFAULT_DISPLAY_SWITCHES,
  PRIVILEGES,
  type DisplaySwitches,
  type PermissionKey,
} from '@cellcloud/contracts';
import type { PlanGrant } from '../../db/repos/plans';

export interface PlanDefinition {
  id: string;
  name: string;
  /** null = the instance default (STORAGE_QUOTA_GB). */
  quotaBytes: number | null;
  switches: DisplaySwitches;
  isDefault: boolean;
  grants: PlanGrant[];
}

/** The public SynEcoSys database is a subscription feature (docs/product/screens.md#menu integrate menu). */
const SYNECOSYS: PermissionKey[] = ['integrateSynEcoSysData', 'integrateLocalAndSynEcoSys'];

const grant = (
  disabled: (p: PermissionKey) => boolean,
  hidden: (p: PermissionKey) => boolean = () => false,
): PlanGrant[] =>
  PRIVILEGES.map((p) => ({
    permission: p.permission,
    disabled: disabled(p.permission),
    hidden: hidden(p.permission),
  }));

/**
 * Plans created on first start (existing rows are never overwritten, so an operator's changes
 * stay). `researcher` is the default for new accounts: everything a researcher needs to import,
 * analyse and explore local data; the SynEcoSys integrations are shown but disabled.
 * `synecosys` adds them and a larger quota. `readonly` can explore but not import or analyse.
 */
export const DEFAULT_PLANS: PlanDefinition[] = [
  {
    id: 'researcher',
    name: 'Researcher',
    quotaBytes: null,
    switches: DEFAULT_DISPLAY_SWITCHES,
    isDefault: true,
    grants: grant((p) => SYNECOSYS.includes(p)),
  },
  {
    id: 'synecosys',
    name: 'Researcher + SynEcoSys',
    quotaBytes: 200 * 1024 ** 3,
    switches: DEFAULT_DISPLAY_SWITCHES,
    isDefault: false,
    grants: grant(() => false),
  },
  {
    id: 'readonly',
    name: 'Read-only',
    quotaBytes: 1024 ** 3,
    switches: { ...DEFAULT_DISPLAY_SWITCHES, multipleCompare: false },
    isDefault: false,
    grants: grant(
      (p) => ['importData', 'integrateData', 'integrateLocalData', 'tools', 'downloadFreeFile'].includes(p),
      (p) => SYNECOSYS.includes(p),
    ),
  },
];
