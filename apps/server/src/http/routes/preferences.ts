import {
  USER_PREFERENCES_PATH,
  userPreferences,
  userPreferencesPatch,
} from '@cellcloud/contracts/preferences';
import type { AppContext } from '../../context';
import { getPreferences, updatePreferences } from '../../services/preferences';
import type { ZodApp } from '../app';
import { userOf } from '../auth';
import { ok, okSchema } from '../envelope';

const tags = ['account'];
const security = [{ accessToken: [] }];

/** GET/PUT /api/user/preferences — the signed-in user's interface preferences. */
export default async function preferenceRoutes(app: ZodApp, ctx: AppContext) {
  app.get(
    USER_PREFERENCES_PATH,
    { config: { auth: true }, schema: { tags, security, response: okSchema(userPreferences) } },
    async (req) => ok(await getPreferences(ctx.db, userOf(req).id)),
  );
  app.put(
    USER_PREFERENCES_PATH,
    {
      config: { auth: true },
      schema: { tags, security, body: userPreferencesPatch, response: okSchema(userPreferences) },
    },
    async (req) => ok(await updatePreferences(ctx.db, userOf(req).id, req.body)),
  );
}
