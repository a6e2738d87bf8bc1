import {
  accountPaths,
  availabilityQuery,
  availabilityResponse,
  contactUsRequest,
  criteriaIpAddressResponse,
  emailField,
  forgotPasswordRequest,
  loginRequest,
  loginResponse,
  phoneField,
  registerRequest,
  registerResponse,
  sendMessageRequest,
  sendMessageResponse,
  usernameField,
} from '@cellcloud/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { usersRepo } from '../../db/repos/users';
import '../../i18n/accounts';
import { translate } from '../../i18n/translate';
import { sendCode } from '../../services/accounts/codes';
import { contactUs } from '../../services/accounts/contact';
import { login, signOut } from '../../services/accounts/login';
import { resetPassword } from '../../services/accounts/passwords-update';
import { register } from '../../services/accounts/register';
import { accountsOf } from '../../services/accounts/wire';
import { ACCOUNT_LIMITS } from '../../services/rate-limit';
import '../../i18n/security';
import { regionOf } from '../../services/region';
import type { ZodApp } from '../app';
import { tokenOf } from '../auth';
import { ok, okSchema } from '../envelope';
import { registerFormBody } from '../form-body';
import { metaOf } from './request-meta';

const tags = ['account'];
const empty = z.object({}).nullable();

/** Public account calls of docs/product/api.md#access-token (no token needed): log in, register, checks, codes, region. */
export default async function accountRoutes(app: ZodApp, ctx: AppContext) {
  registerFormBody(app);
  const d = () => accountsOf(ctx);

  app.post(
    accountPaths.login,
    {
      schema: {
        tags,
        summary: 'Log in with user name or e-mail',
        body: loginRequest,
        response: okSchema(loginResponse),
      },
    },
    async (req) => {
      const m = metaOf(req);
      return ok(await login(d(), req.body, m), translate(m.locale, 'account.login.ok'));
    },
  );

  app.post(
    accountPaths.register,
    {
      schema: {
        tags,
        summary: 'Create an account (e-mail code of purpose register)',
        body: registerRequest,
        response: okSchema(registerResponse),
      },
    },
    async (req) => {
      return ok(await register(d(), req.body), translate(metaOf(req).locale, 'account.register.ok'));
    },
  );

  const check = (
    path: string,
    field: z.ZodType<string>,
    taken: (v: string) => Promise<boolean>,
    summary: string,
  ) =>
    app.get(
      path,
      { schema: { tags, summary, querystring: availabilityQuery, response: okSchema(availabilityResponse) } },
      async (req) => {
        // Per-IP limit: these answers reveal which names/addresses exist.
        await d().limiter.consume('availability-ip', metaOf(req).ip, ACCOUNT_LIMITS.availabilityPerIp);
        const valid = field.safeParse(req.query.value).success;
        return ok({ valid, available: !(await taken(req.query.value)) });
      },
    );
  check(
    accountPaths.checkUsername,
    usernameField,
    async (v) => !!(await usersRepo.byUsername(ctx.db, v)),
    'Is this user name free?',
  );
  check(
    accountPaths.checkEmail,
    emailField,
    async (v) => !!(await usersRepo.byEmail(ctx.db, v)),
    'Is this e-mail free?',
  );
  check(
    accountPaths.checkPhone,
    phoneField,
    (v) => usersRepo.phoneTaken(ctx.db, v),
    'Is this phone number free?',
  );

  app.post(
    accountPaths.sendMessage,
    {
      schema: {
        tags,
        summary: 'Mail a 6-digit code (valid 2 hours)',
        body: sendMessageRequest,
        response: okSchema(sendMessageResponse),
      },
    },
    async (req) => {
      const m = metaOf(req);
      // A reset answers the same whether or not the address has an account (no enumeration).
      const key = req.body.purpose === 'reset' ? 'account.code.sentReset' : 'account.code.sent';
      return ok(await sendCode(d(), req.body, m), translate(m.locale, key, { email: req.body.email }));
    },
  );

  app.post(
    accountPaths.forgotPassword,
    {
      schema: {
        tags,
        summary: 'Forgot password: code of purpose reset + new password',
        body: forgotPasswordRequest,
        response: okSchema(empty),
      },
    },
    async (req) => {
      await resetPassword(d(), req.body);
      return ok(null, translate(metaOf(req).locale, 'account.password.updated'));
    },
  );

  app.get(
    accountPaths.signOut,
    { schema: { tags, summary: 'Sign out (revokes the token)', response: okSchema(empty) } },
    async (req) => {
      await signOut(d(), tokenOf(req));
      return ok(null, translate(metaOf(req).locale, 'account.signedOut'));
    },
  );

  app.post(
    accountPaths.contactUs,
    {
      schema: {
        tags,
        summary: 'Contact form',
        body: contactUsRequest,
        response: okSchema(z.object({ id: z.string() })),
      },
    },
    async (req) => {
      const m = metaOf(req);
      return ok(
        await contactUs(d(), req.body, req.user?.id ?? null, m, (s) => req.log.warn(s)),
        translate(m.locale, 'account.contact.ok'),
      );
    },
  );

  app.get(
    accountPaths.criteriaIpAddress,
    {
      schema: {
        tags,
        summary: "The caller's country (offline GeoIP)",
        response: okSchema(criteriaIpAddressResponse),
      },
    },
    async (req) => {
      return ok(await regionOf(ctx.config, req.ip));
    },
  );
}
