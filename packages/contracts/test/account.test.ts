import { describe, expect, it } from 'vitest';
import {
  forgotPasswordRequest,
  loginRequest,
  PRIVILEGES,
  registerRequest,
  routePermission,
  usernameField,
} from '../src/index';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? undefined : r.error?.issues[0]?.message;

describe('account rules (docs/product/validation.md)', () => {
  it('username: 3–50, no leading digit, no spaces, no special characters', () => {
    expect(usernameField.safeParse('alice_01').success).toBe(true);
    expect(firstMessage(usernameField.safeParse('ab'))).toBe('validation.username.length');
    expect(firstMessage(usernameField.safeParse('1alice'))).toBe('validation.username.leadingDigit');
    expect(firstMessage(usernameField.safeParse('al ice'))).toBe('validation.username.spaces');
    expect(firstMessage(usernameField.safeParse('al$ice'))).toBe('validation.username.special');
    expect(usernameField.safeParse('a'.repeat(51)).success).toBe(false);
  });

  const reg = {
    username: 'alice',
    firstName: 'Alice',
    lastName: 'Liddell',
    email: 'alice@example.org',
    password: 'Secret12',
    repeatPassword: 'Secret12',
    institution: 'Uni',
    emailCode: '123456',
    termsAgreed: true,
  };

  it('registration: password rule, repeat match, terms required', () => {
    expect(registerRequest.safeParse(reg).success).toBe(true);
    expect(
      firstMessage(registerRequest.safeParse({ ...reg, password: 'secret12', repeatPassword: 'secret12' })),
    ).toBe('validation.password.rule');
    expect(firstMessage(registerRequest.safeParse({ ...reg, repeatPassword: 'Secret13' }))).toBe(
      'validation.password.mismatch',
    );
    expect(firstMessage(registerRequest.safeParse({ ...reg, termsAgreed: 'false' }))).toBe(
      'validation.terms.required',
    );
    expect(registerRequest.safeParse({ ...reg, termsAgreed: 'on', marketingConsent: 'on' }).success).toBe(
      true,
    );
    expect(
      registerRequest.safeParse({ ...reg, password: 'Ab1'.repeat(6), repeatPassword: 'Ab1'.repeat(6) })
        .success,
    ).toBe(false);
  });

  it('login only checks the minimum length; forgot password checks the new-password rule', () => {
    expect(loginRequest.safeParse({ username: 'alice', password: 'abcdef' }).success).toBe(true);
    expect(firstMessage(loginRequest.safeParse({ username: 'alice', password: 'abc' }))).toBe(
      'validation.password.min',
    );
    expect(
      forgotPasswordRequest.safeParse({
        email: 'a@b.co',
        code: '000000',
        password: 'abcdef',
        repeatPassword: 'abcdef',
      }).success,
    ).toBe(false);
  });
});

describe('privileges', () => {
  it('ids are unique and every parent exists', () => {
    const ids = new Set(PRIVILEGES.map((p) => p.id));
    expect(ids.size).toBe(PRIVILEGES.length);
    for (const p of PRIVILEGES) if (p.parentId !== null) expect(ids.has(p.parentId)).toBe(true);
  });
  it('maps routes to permissions, /app1 by prefix', () => {
    expect(routePermission('/importdata')).toBe('importData');
    expect(routePermission('/app1/board')).toBe('tools');
    expect(routePermission('/userDatasetAnalysis')).toBeUndefined();
  });
});
