import {
  accountInfo,
  accountPaths,
  changeEmailRequest,
  changePasswordRequest,
  loginLogResponse,
} from '@cellcloud/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context';
import '../../i18n/accounts';
import { translate } from '../../i18n/translate';
import { changeEmail } from '../../services/accounts/change-email';
import { accountInfo as infoOf } from '../../services/accounts/info';
import { loginLog } from '../../services/accounts/login';
import { changePassword } from '../../services/accounts/passwords-update';
import { accountsOf } from '../../services/accounts/wire';
import type { ZodApp } from '../app';
import { tokenOf, userOf } from '../auth';
import { ok, okSchema } from '../envelope';
import { metaOf } from './request-meta';

const tags = ['account'];
const security = [{ accessToken: [] }];
const empty = z.object({}).nullable();
const auth = { auth: true };

/** Account calls of the signed-in user: info (menu privileges), password, e-mail, login log. */
export default async function accountSessionRoutes(app: ZodApp, ctx: AppContext) {
  const d = () => accountsOf(ctx);

  app.get(
    accountPaths.info,
    {
      config: auth,
      schema: {
        tags,
        security,
        summary: 'The signed-in user, its privileges and switches',
        response: okSchema(accountInfo),
      },
    },
    async (req) => {
      return ok(await infoOf(d(), userOf(req).id));
    },
  );

  app.post(
    accountPaths.changePassword,
    {
      config: auth,
      schema: {
        tags,
        security,
        summary: 'Change password',
        body: changePasswordRequest,
        response: okSchema(empty),
      },
    },
    async (req) => {
      await changePassword(d(), userOf(req).id, tokenOf(req) ?? '', req.body);
      return ok(null, translate(metaOf(req).locale, 'account.password.updated'));
    },
  );

  app.post(
    accountPaths.changeEmail,
    {
      config: auth,
      schema: {
        tags,
        security,
        summary: 'Change e-mail (code of purpose changeEmail sent to the new address)',
        body: changeEmailRequest,
        response: okSchema(empty),
      },
    },
    async (req) => {
      await changeEmail(d(), userOf(req).id, req.body);
      return ok(null, translate(metaOf(req).locale, 'account.email.updated'));
    },
  );

  app.get(
    accountPaths.loginLog,
    {
      config: auth,
      schema: { tags, security, summary: 'The last 10 logins', response: okSchema(loginLogResponse) },
    },
    async (req) => {
      return ok(await loginLog(d(), userOf(req).id));
    },
  );
}
