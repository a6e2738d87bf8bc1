import { useMutation } from '@tanstack/react-query';
import { accountPaths } from '@cellcloud/contracts/paths';
import type { LoginRequest } from '@cellcloud/contracts/account';
import { FORM_STATUSES, request, unexpectedAnswer } from './client';
import { asUserInfo, startSession } from './session';

/**
 * POST /account/sign-up (= log in, see packages/contracts/src/account.ts). Part of the first
 * load of /login, so the answer is checked by hand instead of with the zod schema.
 */
export function useLogin() {
  return useMutation({
    mutationFn: async (body: LoginRequest) => {
      const data = await request(accountPaths.login, {
        method: 'POST',
        body,
        form: true,
        handle: FORM_STATUSES,
      });
      const info = asUserInfo(data);
      if (!info) throw unexpectedAnswer(accountPaths.login, 'no token');
      return info;
    },
    onSuccess: (info) => startSession(info),
  });
}
