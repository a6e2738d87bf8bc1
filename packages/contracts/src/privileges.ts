import { z } from 'zod';

/**
 * Menu privileges (docs/product/screens.md#menu, docs/product/entities.md#menu-privileges, docs/product/permissions.md) as DATA: the server seeds these rows and answers each user's
 * list (with `disabled` / `hidden` flags) from GET /account/info; the web renders the top menu
 * from that list and guards routes with ROUTE_PERMISSIONS.
 *
 * `nameKey` is an i18n key of the web's `menu` namespace. `type` 1 = menu entry, 2 = operation
 * permission (not shown in the menu). An entry without `url` is a group or an action (logout).
 */
export const permissionKeys = [
  // menu entries
  'myAnalyses',
  'tools',
  'importData',
  'integrateData',
  'integrateLocalData',
  'integrateSynEcoSysData',
  'integrateLocalAndSynEcoSys',
  'resource',
  'tutorialVideos',
  'documentation',
  'guidebook',
  'faq',
  'contact',
  'myAccount',
  'requestedDownloads',
  'notifications',
  'accountSettings',
  'logout',
  // operation permissions (docs/product/permissions.md#permission-keys)
  'exploreCellQuality',
  'exploreGeneExpression',
  'exploreCellularComposition',
  'exploreDifferentialExpression',
  'exploreCellInteraction',
  'exploreTrajectory',
  'exploreCnv',
  'exploreTfRegulation',
  'exploreCellAnnotations',
  'exploreVdj',
  'downloadFreeFile',
] as const;
export const permissionKey = z.enum(permissionKeys);
export type PermissionKey = z.infer<typeof permissionKey>;

export const PRIVILEGE_TYPE = { menu: 1, operation: 2 } as const;

/** A canonical row (what the server seeds). */
export const privilegeDefinition = z.object({
  id: z.number().int().positive(),
  parentId: z.number().int().positive().nullable(),
  permission: permissionKey,
  nameKey: z.string(),
  url: z.string().nullable(),
  type: z.union([z.literal(1), z.literal(2)]),
  sort: z.number().int(),
});
export type PrivilegeDefinition = z.infer<typeof privilegeDefinition>;

/** One entry of a user's privilege list (docs/product/entities.md#menu-privileges "Menu privilege"). */
export const privilegeEntry = privilegeDefinition.extend({
  disabled: z.boolean(),
  hidden: z.boolean(),
});
export type PrivilegeEntry = z.infer<typeof privilegeEntry>;

const m = (
  id: number,
  parentId: number | null,
  permission: PermissionKey,
  url: string | null,
  sort: number,
  type: 1 | 2 = 1,
): PrivilegeDefinition => ({ id, parentId, permission, nameKey: `menu.${permission}`, url, type, sort });

/** The docs/product/screens.md#menu menu tree, then the docs/product/permissions.md#permission-keys operation permissions. Ids are stable: never renumber. */
export const PRIVILEGES: readonly PrivilegeDefinition[] = [
  m(1, null, 'myAnalyses', '/my_analyzes', 1),
  m(2, null, 'tools', '/app1', 2),
  m(3, null, 'importData', '/importdata', 3),
  m(4, null, 'integrateData', null, 4),
  m(5, 4, 'integrateLocalData', '/integrateLocalData', 1),
  m(6, 4, 'integrateSynEcoSysData', '/integrateSynEcoSysData', 2),
  m(7, 4, 'integrateLocalAndSynEcoSys', '/integrateLocalAndSynEcoSys', 3),
  m(8, null, 'resource', null, 5),
  m(9, 8, 'tutorialVideos', '/tutorialVideos', 1),
  m(10, 8, 'documentation', '/documentation', 2),
  m(11, 8, 'guidebook', '/guidebook', 3),
  m(12, 8, 'faq', '/faq', 4),
  m(13, 8, 'contact', '/contact', 5),
  m(14, null, 'myAccount', null, 6),
  m(15, 14, 'requestedDownloads', '/requestedDownloads', 1),
  m(16, 14, 'notifications', '/notifications', 2),
  m(17, 14, 'accountSettings', '/accountsettings', 3),
  m(18, 14, 'logout', null, 4),
  m(101, null, 'exploreCellQuality', null, 1, 2),
  m(102, null, 'exploreGeneExpression', null, 2, 2),
  m(103, null, 'exploreCellularComposition', null, 3, 2),
  m(104, null, 'exploreDifferentialExpression', null, 4, 2),
  m(105, null, 'exploreCellInteraction', null, 5, 2),
  m(106, null, 'exploreTrajectory', null, 6, 2),
  m(107, null, 'exploreCnv', null, 7, 2),
  m(108, null, 'exploreTfRegulation', null, 8, 2),
  m(109, null, 'exploreCellAnnotations', null, 9, 2),
  m(110, null, 'exploreVdj', null, 10, 2),
  m(111, null, 'downloadFreeFile', null, 11, 2),
];

/**
 * Route → permission that must be present, not disabled and not hidden (else /404).
 * Routes not listed need only a token. `/app1` matches the whole prefix.
 */
export const ROUTE_PERMISSIONS: Readonly<Record<string, PermissionKey>> = {
  '/my_analyzes': 'myAnalyses',
  '/app1': 'tools',
  '/importdata': 'importData',
  '/integrateLocalData': 'integrateLocalData',
  '/integrateSynEcoSysData': 'integrateSynEcoSysData',
  '/integrateLocalAndSynEcoSys': 'integrateLocalAndSynEcoSys',
  '/tutorialVideos': 'tutorialVideos',
  '/documentation': 'documentation',
  '/guidebook': 'guidebook',
  '/faq': 'faq',
  '/contact': 'contact',
  '/requestedDownloads': 'requestedDownloads',
  '/notifications': 'notifications',
  '/accountsettings': 'accountSettings',
};

/** Permission required for a pathname, if any (prefix match for /app1). */
export function routePermission(pathname: string): PermissionKey | undefined {
  if (pathname === '/app1' || pathname.startsWith('/app1/')) return ROUTE_PERMISSIONS['/app1'];
  return ROUTE_PERMISSIONS[pathname];
}

/** Display switches (docs/product/permissions.md#display-switches), per user, answered by GET /account/info. */
export const displaySwitches = z.object({
  canonicalMarkers: z.boolean(),
  homeSearches: z.boolean(),
  multipleCompare: z.boolean(),
  /** Which documentation / guidebook set to show. */
  docType: z.enum(['CN', 'global']),
  onlyIntegratedSynEcoSysDatasets: z.boolean(),
});
export type DisplaySwitches = z.infer<typeof displaySwitches>;

export const DEFAULT_DISPLAY_SWITCHES: DisplaySwitches = {
  canonicalMarkers: true,
  homeSearches: true,
  multipleCompare: true,
  docType: 'global',
  onlyIntegratedSynEcoSysDatasets: false,
};
