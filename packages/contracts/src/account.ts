import { z } from 'zod';
import { LIMITS } from './constants';
import { privilegeEntry, displaySwitches } from './privileges';

/**
 * Account calls of docs/product/api.md#account-calls, all under ACCOUNT_BASE. Validation rules of docs/product/validation.md.
 * Error messages are i18n KEYS (namespace `validation` on the web, the server catalog on the
 * server) so both sides translate them; never put prose in a message here.
 *
 * Reading of the SPEC: `POST /account/sign-up` carries a form and is listed before
 * registration (`POST /account/reg`). In the original product "sign up" is the LOGIN call
 * ("sign up" as in "sign on"), so here `POST /account/sign-up` = log in and
 * `POST /account/reg` = create an account. Both accept JSON or a urlencoded form.
 */
export { ACCOUNT_BASE, CELELENS_BASE, accountPaths } from './paths';

// ── field rules (docs/product/validation.md) ────────────────────────────────────────────────────────────────────

/** Letters, digits, underscore; must not start with a digit. No spaces or other symbols. */
export const USERNAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const usernameField = z
  .string()
  .min(LIMITS.usernameMin, { message: 'validation.username.length' })
  .max(LIMITS.usernameMax, { message: 'validation.username.length' })
  .refine((s) => !/\s/.test(s), { message: 'validation.username.spaces' })
  .refine((s) => !/^[0-9]/.test(s), { message: 'validation.username.leadingDigit' })
  .refine((s) => USERNAME_PATTERN.test(s) || /\s|^[0-9]/.test(s), {
    message: 'validation.username.special',
  });

/** Registration / new password: 6–16 chars with an uppercase letter and a digit. */
export const newPasswordField = z
  .string()
  .min(LIMITS.passwordMin, { message: 'validation.password.rule' })
  .max(LIMITS.passwordMax, { message: 'validation.password.rule' })
  .refine((s) => /[A-Z]/.test(s) && /[0-9]/.test(s), { message: 'validation.password.rule' });

/** Login password: only the minimum length is checked (docs/product/validation.md#passwords). */
export const loginPasswordField = z
  .string()
  .min(LIMITS.passwordMin, { message: 'validation.password.min' })
  .max(128, { message: 'validation.password.min' });

export const emailField = z
  .string()
  .trim()
  .min(1, { message: 'validation.email.required' })
  .max(254, { message: 'validation.email.invalid' })
  .pipe(z.email({ message: 'validation.email.invalid' }));

/** Optional international phone: digits, spaces, +, -, parentheses; 5–20 characters. */
export const phoneField = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ()-]{5,20}$/, { message: 'validation.phone.invalid' });

/** The 6-digit e-mail code (valid LIMITS.emailCodeValidMs). */
export const emailCodeField = z
  .string()
  .trim()
  .regex(/^[0-9]{6}$/, { message: 'validation.code.invalid' });

const required = (max: number) =>
  z.string().trim().min(1, { message: 'validation.required' }).max(max, { message: 'validation.tooLong' });

/** Form checkboxes may arrive as 'true'/'on' strings from a urlencoded form. */
const formBool = z.preprocess((v) => v === true || v === 'true' || v === 'on' || v === '1', z.boolean());

const repeatMatches = <T extends { password: string; repeatPassword: string }>(v: T) =>
  v.password === v.repeatPassword;
const repeatIssue = { message: 'validation.password.mismatch', path: ['repeatPassword'] };

// ── login / registration ─────────────────────────────────────────────────────────────────────

/** POST /account/sign-up (= log in, see above). `username` may be a user name or an e-mail. */
export const loginRequest = z
  .object({
    username: z.string().trim().min(1, { message: 'validation.login.required' }).max(254),
    password: loginPasswordField,
  })
  .strict();
export type LoginRequest = z.infer<typeof loginRequest>;

/** Stored user info (docs/product/entities.md#stored-user-info), kept by the web under `${STORAGE_PREFIX}userInfo`. */
export const storedUserInfo = z.object({ token: z.string().min(1), user_name: z.string() });
export type StoredUserInfo = z.infer<typeof storedUserInfo>;
export const loginResponse = storedUserInfo;
export type LoginResponse = StoredUserInfo;

/** POST /account/reg: every registration field of docs/product/entities.md#registration. */
export const registerRequest = z
  .object({
    username: usernameField,
    firstName: required(100),
    lastName: required(100),
    email: emailField,
    phone: z.union([phoneField, z.literal('')]).optional(),
    password: newPasswordField,
    repeatPassword: z.string(),
    institution: required(200),
    researchInterest: z.string().trim().max(500, { message: 'validation.tooLong' }).optional(),
    emailCode: emailCodeField,
    marketingConsent: formBool.default(false),
    termsAgreed: formBool.refine((v) => v, { message: 'validation.terms.required' }),
  })
  .strict()
  .refine(repeatMatches, repeatIssue);
export type RegisterRequest = z.input<typeof registerRequest>;
/** Registration answers data `{ username }` with code 200 ("Registration successful"). */
export const registerResponse = z.object({ username: z.string() });

/** GET /account/reg/check_username|check_email|check_phone?value=… */
export const availabilityQuery = z.object({ value: z.string().trim().min(1).max(254) }).strict();
export type AvailabilityQuery = z.infer<typeof availabilityQuery>;
/** `available` false means already registered; `valid` false means the value breaks the rules. */
export const availabilityResponse = z.object({ available: z.boolean(), valid: z.boolean() });
export type AvailabilityResponse = z.infer<typeof availabilityResponse>;

export const codePurposes = ['register', 'reset', 'changeEmail'] as const;
export type CodePurpose = (typeof codePurposes)[number];
/** POST /account/sendMessage: mail a 6-digit code. The dev outbox prints it to stdout. */
export const sendMessageRequest = z.object({ email: emailField, purpose: z.enum(codePurposes) }).strict();
export type SendMessageRequest = z.infer<typeof sendMessageRequest>;
/** `resendAfterSeconds` drives the web's countdown (60 s). */
export const sendMessageResponse = z.object({ resendAfterSeconds: z.number().int().nonnegative() });
export const CODE_RESEND_SECONDS = 60;

/**
 * The line the development e-mail outbox prints to stdout for every mail with a code, so e2e
 * tests and developers can read it: `[outbox] to=<email> purpose=<purpose> code=<6 digits>`.
 */
export const OUTBOX_LINE = /\[outbox\] to=(\S+) purpose=(\w+) code=([0-9]{6})/;
export const outboxLine = (email: string, purpose: CodePurpose, code: string) =>
  `[outbox] to=${email} purpose=${purpose} code=${code}`;

// ── session ──────────────────────────────────────────────────────────────────────────────────

/** GET /account/info (auth): the signed-in user, its menu privileges and display switches. */
export const accountInfo = z.object({
  user: z.object({
    id: z.string(),
    username: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    institution: z.string(),
    researchInterest: z.string().nullable(),
    marketingConsent: z.boolean(),
    createdAt: z.string(),
    /** ISO date the subscription ends, null = free account. */
    subscriptionUntil: z.string().nullable(),
  }),
  privileges: z.array(privilegeEntry),
  switches: displaySwitches,
  unreadNotifications: z.number().int().nonnegative(),
});
export type AccountInfo = z.infer<typeof accountInfo>;

/** GET /account/criteriaIpAddress (public): the visitor's region. */
export const criteriaIpAddressResponse = z.object({
  countryIsoCode: z.string(),
  /** Configured domains; null when none is configured (then no redirect alert). */
  domains: z.object({ cn: z.string(), global: z.string() }).nullable(),
});
export type CriteriaIpAddress = z.infer<typeof criteriaIpAddressResponse>;

// ── passwords, e-mail, log ───────────────────────────────────────────────────────────────────

/** POST /account/beforeLogin/password/update (JSON): forgot password. */
export const forgotPasswordRequest = z
  .object({ email: emailField, code: emailCodeField, password: newPasswordField, repeatPassword: z.string() })
  .strict()
  .refine(repeatMatches, repeatIssue);
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;

/** POST /account/password/update (auth): change password while signed in. */
export const changePasswordRequest = z
  .object({ oldPassword: loginPasswordField, password: newPasswordField, repeatPassword: z.string() })
  .strict()
  .refine(repeatMatches, repeatIssue);
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

/** POST /account/email/update (auth): code sent to the NEW address with purpose changeEmail. */
export const changeEmailRequest = z.object({ email: emailField, code: emailCodeField }).strict();
export type ChangeEmailRequest = z.infer<typeof changeEmailRequest>;

/** GET /account/loginLog (auth): the last LIMITS.loginLogSize logins, newest first. */
export const loginLogRow = z.object({
  loginAt: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  success: z.boolean(),
});
export const loginLogResponse = z.array(loginLogRow);
export type LoginLogRow = z.infer<typeof loginLogRow>;

/** POST /account/contactUS (JSON, public): feedback / contact form. */
export const contactUsRequest = z
  .object({
    name: required(100),
    email: emailField,
    subject: required(200),
    message: z
      .string()
      .trim()
      .min(1, { message: 'validation.required' })
      .max(5000, { message: 'validation.tooLong' }),
  })
  .strict();
export type ContactUsRequest = z.infer<typeof contactUsRequest>;
