import { describe, expect, it } from 'vitest';
import { PRIVILEGES, type PrivilegeEntry } from '@cellcloud/contracts/privileges';
import { loginRedirectPath, safeRedirect } from '../../src/app/loginRedirect';
import { targetDomain } from '../../src/app/regionDomain';
import { buildMenuItems, LOGOUT_KEY, TUTORIAL_KEY } from '../../src/app/shell/menuItems';
import { canUse } from '../../src/app/shell/privilegeAccess';

const t = ((k: string) => `T(${k})`) as never;
const entries = (
  flags: Partial<Record<string, { disabled?: boolean; hidden?: boolean }>> = {},
): PrivilegeEntry[] =>
  PRIVILEGES.map((p) => ({
    ...p,
    disabled: flags[p.permission]?.disabled ?? false,
    hidden: flags[p.permission]?.hidden ?? false,
  }));

describe('login redirect', () => {
  it('keeps the page left, not public pages', () => {
    expect(loginRedirectPath('/faq?x=1')).toBe('/login?redirect=%2Ffaq%3Fx%3D1');
    expect(loginRedirectPath('/login')).toBe('/login');
    expect(loginRedirectPath('/')).toBe('/login');
  });
  it('only returns to same-site paths', () => {
    expect(safeRedirect('/importdata')).toBe('/importdata');
    expect(safeRedirect('//evil.example/x')).toBe('/my_analyzes');
    expect(safeRedirect('https://evil.example')).toBe('/my_analyzes');
    expect(safeRedirect(null)).toBe('/my_analyzes');
  });
});

describe('menu from privileges (docs/product/screens.md#menu)', () => {
  it('builds the SPEC tree: six top entries, integrate and resource children, logout action', () => {
    const items = buildMenuItems(entries(), t) as {
      key: string;
      label: string;
      children?: { key: string }[];
    }[];
    expect(items.map((i) => i.label)).toEqual(
      ['myAnalyses', 'tools', 'importData', 'integrateData', 'resource', 'myAccount'].map(
        (k) => `T(menu:${k})`,
      ),
    );
    const integrate = items.find((i) => i.label === 'T(menu:integrateData)')!;
    expect(integrate.children!.map((c) => c.key)).toEqual([
      '/integrateLocalData',
      '/integrateSynEcoSysData',
      '/integrateLocalAndSynEcoSys',
      '/publicDatabase', // the public database page, with a SynEcoSys integration enabled (issue 20)
    ]);
    const noPublic = buildMenuItems(
      entries({ integrateSynEcoSysData: { disabled: true }, integrateLocalAndSynEcoSys: { disabled: true } }),
      t,
    ) as { label: string; children?: { key: string }[] }[];
    expect(
      noPublic.find((i) => i.label === 'T(menu:integrateData)')!.children!.map((c) => c.key),
    ).not.toContain('/publicDatabase');
    const account = items.find((i) => i.label === 'T(menu:myAccount)')!;
    expect(account.children!.map((c) => c.key)).toEqual([
      '/requestedDownloads',
      '/notifications',
      '/accountsettings',
      LOGOUT_KEY,
    ]);
    const resource = items.find((i) => i.label === 'T(menu:resource)')!;
    expect(resource.children!.map((c) => c.key).at(-1)).toBe(TUTORIAL_KEY);
    expect(JSON.stringify(items)).not.toContain('explore'); // operation permissions are not menu entries
  });

  it('greys disabled entries and leaves hidden ones out', () => {
    const items = buildMenuItems(entries({ importData: { disabled: true }, tools: { hidden: true } }), t) as {
      key: string;
      disabled?: boolean;
    }[];
    expect(items.find((i) => i.key === '/importdata')?.disabled).toBe(true);
    expect(items.some((i) => i.key === '/app1')).toBe(false);
  });

  it('a route is usable only when its privilege is present, enabled and visible', () => {
    expect(canUse(entries(), 'faq')).toBe(true);
    expect(canUse(entries({ faq: { disabled: true } }), 'faq')).toBe(false);
    expect(canUse(entries({ faq: { hidden: true } }), 'faq')).toBe(false);
    expect(canUse([], 'faq')).toBe(false);
  });
});

describe('region domain', () => {
  const domains = { cn: 'cellcloud.cn', global: 'cellcloud.org' };
  it('asks CN visitors on the international domain to move, and vice versa', () => {
    expect(targetDomain({ countryIsoCode: 'CN', domains }, 'cellcloud.org')).toBe('cellcloud.cn');
    expect(targetDomain({ countryIsoCode: 'DE', domains }, 'cellcloud.cn')).toBe('cellcloud.org');
  });
  it('stays quiet on the right domain, on other hosts and without configured domains', () => {
    expect(targetDomain({ countryIsoCode: 'CN', domains }, 'cellcloud.cn')).toBeNull();
    expect(targetDomain({ countryIsoCode: 'CN', domains }, 'localhost')).toBeNull();
    expect(targetDomain({ countryIsoCode: 'CN', domains: null }, 'cellcloud.org')).toBeNull();
  });
});
