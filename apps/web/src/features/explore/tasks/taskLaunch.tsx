import { createContext, useContext } from 'react';

/**
 * Opening a task's run form from elsewhere in the explorer (e.g. the embedding choice's "not
 * computed" layouts → the layout task preset to that layout): the workspace switches to the tab
 * that hosts the task and its run form takes the params (as if the user had chosen them).
 */
export interface TaskLaunchRequest {
  task: string;
  params: Record<string, unknown>;
  /** A new request each time (the same params asked twice fill the form again). */
  nonce: number;
}

export interface TaskLaunch {
  /** True when the task's form can be opened here (a dataset with a server, the tab allowed). */
  can(task: string): boolean;
  launch(task: string, params: Record<string, unknown>): void;
  request: TaskLaunchRequest | null;
}

const TaskLaunchContext = createContext<TaskLaunch | null>(null);

export const TaskLaunchProvider = TaskLaunchContext.Provider;

/** The explorer's task launcher; null outside a workspace that can run tasks. */
export function useTaskLaunch(): TaskLaunch | null {
  return useContext(TaskLaunchContext);
}
