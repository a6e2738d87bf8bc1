import {
  DEFAULT_DISPLAY_SWITCHES,
  displaySwitches,
  type DisplaySwitches,
  type PrivilegeEntry,
} from '@cellcloud/contracts';
import type { Queryable } from '../../db/client';
import { plansRepo } from '../../db/repos/plans';

export interface UserPrivileges {
  planId: string | null;
  entries: PrivilegeEntry[];
  switches: DisplaySwitches;
  /** Held, enabled and visible. */
  allowed: Set<string>;
  /** Held but disabled or hidden (→ 403 "request a subscription"). */
  blocked: Set<string>;
}

/** The privileges and display switches of a plan (a user without a plan gets the default plan). */
export async function privilegesOfPlan(q: Queryable, planId: string | null): Promise<UserPrivileges> {
  const plan = planId ? await plansRepo.plan(q, planId) : await plansRepo.defaultPlan(q);
  if (!plan)
    return {
      planId: null,
      entries: [],
      switches: DEFAULT_DISPLAY_SWITCHES,
      allowed: new Set(),
      blocked: new Set(),
    };
  const rows = await plansRepo.grants(q, plan.id);
  const entries: PrivilegeEntry[] = rows.map((r) => ({
    id: Number(r.id),
    parentId: r.parent_id === null ? null : Number(r.parent_id),
    permission: r.permission as PrivilegeEntry['permission'],
    nameKey: r.name_key,
    url: r.url,
    type: Number(r.type) === 2 ? 2 : 1,
    sort: Number(r.sort),
    disabled: r.disabled,
    hidden: r.hidden,
  }));
  const parsed = displaySwitches.safeParse({ ...DEFAULT_DISPLAY_SWITCHES, ...plan.switches });
  return {
    planId: plan.id,
    entries,
    switches: parsed.success ? parsed.data : DEFAULT_DISPLAY_SWITCHES,
    allowed: new Set(entries.filter((e) => !e.disabled && !e.hidden).map((e) => e.permission)),
    blocked: new Set(entries.filter((e) => e.disabled || e.hidden).map((e) => e.permission)),
  };
}
