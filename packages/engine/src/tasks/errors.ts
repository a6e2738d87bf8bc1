/**
 * A task's refusal or failure with a translatable message. `key` is a key of the task
 * definition's `messages` (contracts `tasks/<task>.ts`) or of COMMON_TASK_MESSAGES; the server
 * stores `task.<key>` + params and renders it in the reader's language. Always permanent (no retry).
 */
export class TaskError extends Error {
  readonly key: string;
  readonly params: Record<string, string | number>;

  constructor(key: string, message: string, params: Record<string, string | number> = {}) {
    super(message);
    this.name = 'TaskError';
    this.key = key;
    this.params = params;
  }
}

export function isTaskError(e: unknown): e is TaskError {
  return e instanceof TaskError;
}
