import { z } from 'zod';

/**
 * Per-user interface preferences kept on the server, so that a second browser agrees
 * (issue 22 item 4: the My Analyses tutorial stays closed once the user closed it).
 * GET /api/user/preferences (auth) → UserPreferences (defaults when nothing is stored).
 * PUT /api/user/preferences (auth) with a partial UserPreferences → the merged preferences.
 */
export const USER_PREFERENCES_PATH = '/api/user/preferences';

export const userPreferences = z.object({
  /** The first-visit tutorial of My Analyses was closed (X, Done or "don't show again"). */
  tutorialDismissed: z.boolean().default(false),
});
export type UserPreferences = z.infer<typeof userPreferences>;
export const userPreferencesPatch = z.object({ tutorialDismissed: z.boolean().optional() }).strict();
export type UserPreferencesPatch = z.infer<typeof userPreferencesPatch>;
