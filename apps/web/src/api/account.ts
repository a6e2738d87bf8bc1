import { useMutation, useQuery } from '@tanstack/react-query';
import {
  accountInfo,
  accountPaths,
  availabilityResponse,
  loginLogResponse,
  registerResponse,
  sendMessageResponse,
  type ChangeEmailRequest,
  type ChangePasswordRequest,
  type CodePurpose,
  type ContactUsRequest,
  type ForgotPasswordRequest,
  type RegisterRequest,
} from '@cellcloud/contracts/account';
import { FORM_STATUSES, request } from './client';
import { useSession } from './session';

/** Query keys of the account area. */
export const accountKeys = {
  info: ['account', 'info'] as const,
  loginLog: ['account', 'loginLog'] as const,
};

/** GET /account/info for the signed-in user (privileges, switches, unread count). */
export function useAccountInfo() {
  const session = useSession();
  return useQuery({
    queryKey: [...accountKeys.info, session?.token ?? ''],
    queryFn: () => request(accountPaths.info, { schema: accountInfo }),
    enabled: session !== null,
    staleTime: 60_000,
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterRequest) =>
      request(accountPaths.register, {
        method: 'POST',
        body,
        form: true,
        schema: registerResponse,
        handle: FORM_STATUSES,
      }),
  });
}

export type AvailabilityField = 'username' | 'email' | 'phone';
const checkPath = {
  username: accountPaths.checkUsername,
  email: accountPaths.checkEmail,
  phone: accountPaths.checkPhone,
} as const;

/** GET /account/reg/check_<field>?value=… (used by the sign-up form's live checks). */
export function checkAvailability(field: AvailabilityField, value: string) {
  return request(checkPath[field], { query: { value }, schema: availabilityResponse, handle: FORM_STATUSES });
}

export function useSendCode() {
  return useMutation({
    mutationFn: (body: { email: string; purpose: CodePurpose }) =>
      request(accountPaths.sendMessage, {
        method: 'POST',
        body,
        form: true,
        schema: sendMessageResponse,
        handle: FORM_STATUSES,
      }),
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotPasswordRequest) =>
      request(accountPaths.forgotPassword, { method: 'POST', body, handle: FORM_STATUSES }),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) =>
      request(accountPaths.changePassword, { method: 'POST', body, handle: [400, 409, 422] }),
  });
}

export function useChangeEmail() {
  return useMutation({
    mutationFn: (body: ChangeEmailRequest) =>
      request(accountPaths.changeEmail, { method: 'POST', body, handle: [400, 409, 422] }),
  });
}

export function useLoginLog() {
  return useQuery({
    queryKey: accountKeys.loginLog,
    queryFn: () => request(accountPaths.loginLog, { schema: loginLogResponse }),
  });
}

export function useContactUs() {
  return useMutation({
    mutationFn: (body: ContactUsRequest) =>
      request(accountPaths.contactUs, { method: 'POST', body, handle: FORM_STATUSES }),
  });
}

/** GET /account/sign-out; the session ends locally whatever the answer. */
export function signOut(): Promise<unknown> {
  return request(accountPaths.signOut, { handle: [0, 401, 403, 404, 500, 502, 503] }).catch(() => undefined);
}
