import { PRIVILEGES } from '@cellcloud/contracts';
import type { Db } from '../../db/client';
import { plansRepo } from '../../db/repos/plans';
import { DEFAULT_PLANS } from './default-plans';

/**
 * Brings the `privileges` table in step with packages/contracts/src/privileges.ts (ids are
 * stable) and creates the default plans that do not exist yet. Runs at every start.
 */
export async function syncPrivilegesAndPlans(db: Db): Promise<void> {
  await db.tx(async (q) => {
    for (const p of PRIVILEGES) await plansRepo.upsertPrivilege(q, p);
    for (const plan of DEFAULT_PLANS) {
      const isDefault = plan.isDefault && !(await plansRepo.defaultPlan(q));
      await plansRepo.save(q, { ...plan, isDefault }, false);
    }
  });
}
