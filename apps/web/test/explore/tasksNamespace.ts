import { readFileSync } from 'node:fs';
import path from 'node:path';
import i18next, { type TFunction } from 'i18next';
import type { Locale } from '@cellcloud/contracts/locale';
import { TASK_MESSAGES } from '@cellcloud/tasks/messages';

export const LOCALES: Locale[] = ['en-US', 'zh-CN'];

/** The REAL `tasks` namespace of one language: the app's tasks.json plus each task folder's messages, merged as src/i18n does. */
export async function tasksNamespace(loc: Locale): Promise<{ t: TFunction; has: (key: string) => boolean }> {
  const app = JSON.parse(
    readFileSync(path.resolve(__dirname, `../../src/i18n/locales/${loc}/tasks.json`), 'utf8'),
  ) as Record<string, unknown>;
  const perTask = Object.fromEntries(Object.values(TASK_MESSAGES).map((m) => [m.key, m[loc]]));
  const inst = i18next.createInstance();
  await inst.init({
    lng: loc,
    fallbackLng: false,
    ns: ['tasks'],
    defaultNS: 'tasks',
    resources: { [loc]: { tasks: { ...app, ...perTask } } },
    interpolation: { escapeValue: false },
  });
  return { t: inst.getFixedT(loc, 'tasks'), has: (key) => inst.exists(key, { ns: 'tasks', lng: loc }) };
}
