import type { MenuProps } from 'antd';
import type { TFunction } from 'i18next';
import { PRIVILEGE_TYPE, type PrivilegeEntry } from '@cellcloud/contracts/privileges';

export type MenuItem = Required<MenuProps>['items'][number];

/** Key of the logout action entry (it has no url). */
export const LOGOUT_KEY = 'action:logout';

/** i18n key of a privilege name: `menu.<permission>` → `menu:<permission>`. */
export function privilegeLabel(t: TFunction, nameKey: string): string {
  return t(nameKey.replace(/^menu\./, 'menu:'));
}

/**
 * The top menu from the user's privileges (SPEC §2): menu-type entries only, hidden ones
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
      return { key, label, disabled: p.disabled, children: children.map(toItem) };
    }
    return { key, label, disabled: p.disabled };
  };
  return byParent(null).map(toItem);
}
