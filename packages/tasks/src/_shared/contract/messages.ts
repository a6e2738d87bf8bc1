/**
 * A task's failure messages (its `messages/<locale>.json` → `failures`) as the definition's
 * `messages`: keys prefixed with the task's camelCase key (`cellScore.noGeneSet`), which the engine
 * throws (`TaskError('cellScore.noGeneSet', …)`) and the server stores as `task.<key>`.
 * Placeholders are the server's `{name}`.
 */
export function taskFailures(
  key: string,
  en: Record<string, string>,
  zh: Record<string, string>,
): { 'en-US': Record<string, string>; 'zh-CN': Record<string, string> } {
  const prefix = (m: Record<string, string>) =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [`${key}.${k}`, v]));
  return { 'en-US': prefix(en), 'zh-CN': prefix(zh) };
}

/** `cell-score` → `cellScore`: the task's key in the web `tasks` namespace and in message keys. */
export function taskKey(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** A messages tree (messages/<locale>.json). */
export type MessageTree = { [key: string]: string | MessageTree };

/**
 * A task's messages in both languages: its UI strings (the web's `tasks` namespace under `key`),
 * `failures` (the definition's `messages`, rendered by the server) and `figures` (labels of the
 * exported figures).
 */
export interface TaskMessages {
  key: string;
  'en-US': MessageTree;
  'zh-CN': MessageTree;
}
