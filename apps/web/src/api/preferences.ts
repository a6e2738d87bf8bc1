import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  USER_PREFERENCES_PATH,
  userPreferences,
  type UserPreferencesPatch,
} from '@cellcloud/contracts/preferences';
import { request } from './client';

const key = ['user-preferences'] as const;

/** The signed-in user's interface preferences (stored on the server: every browser agrees). */
export function usePreferences() {
  return useQuery({
    queryKey: key,
    queryFn: () => request(USER_PREFERENCES_PATH, { schema: userPreferences }),
  });
}

export function useUpdatePreferences() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: UserPreferencesPatch) =>
      request(USER_PREFERENCES_PATH, { method: 'PUT', body, schema: userPreferences }),
    onSuccess: (prefs) => qc.setQueryData(key, prefs),
  });
}
