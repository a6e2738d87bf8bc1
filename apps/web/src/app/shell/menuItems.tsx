import type { MenuProps } from 'antd';
import type { TFunction } from 'i18next';
import { PRIVILEGE_TYPE, type PrivilegeEntry } from '@cellcloud/contracts/privileges';

export type MenuItem = Required<MenuProps>['items'][number];

/** Key of the logout action entry (it has no url). */
export const LOGOUT_KEY = 'action:logout';
/** Key of the "Show the tutorial" action under Resource (reopens the My Analyses tutorial). */
export const TUTORIAL_KEY = 'action:tutorial';

/** i18n key of a privilege name: `menu.<permission>` → `menu:<permission>`. */
export function privilegeLabel(t: TFunction, nameKey: string): string {
  return t(nameKey.replace(/^menu\./, 'menu:'));
}

/**
 * The top menu from the user's privileges (docs/product/screens.md#menu): menu-type entries only, hidden ones
 * absent, disabled ones greyed and inert, children under their parent, ordered by `sort`.
 */
export function buildMenuItems(privileges: readonly PrivilegeEntry[], t: TFunction): MenuItem[] {
  const menus = privileges.filter((p) => p.type === PRIVILEGE_TYPE.menu && !p.hidden);
  const byParent = (parentId: number | null) =>
    menus.filter((p) => p.parentId === parentId).sort((a, b) => a.sort - b.sort);
  const toItem = (p: PrivilegeEntry): MenuItem => {
    const children = byParent(p.id);
    const label = privilegeLabel(t, p.nameKey);
    const key = p.url ?? (p.permission === 'logout' ? LOGOUT_KEY : `group:${p.permission}`);
    if (children.length > 0) {
      const items = children.map(toItem);
      // the first-visit tutorial can be reopened from the Resource menu (issue 22 item 4)
      if (p.permission === 'resource') items.push({ key: TUTORIAL_KEY, label: t('shell:nav.tutorial') });
      // the public database page (issue 20) next to the SynEcoSys integrations it feeds
      if (
        p.permission === 'integrateData' &&
        children.some((c) => c.url?.includes('SynEcoSys') && !c.disabled)
      )
        items.push({ key: '/publicDatabase', label: t('publicdb:title') });
      return { key, label, disabled: p.disabled, children: items };
    }
    return { key, label, disabled: p.disabled };
  };
  return byParent(null).map(toItem);
}
