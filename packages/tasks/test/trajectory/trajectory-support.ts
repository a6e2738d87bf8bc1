import type { ResourceReader } from '@cellcloud/engine/tasks/kit';

/** The trajectory tasks read no resources. */
export const resources: ResourceReader = {
  readBytes: () => Promise.reject(new Error('no resources')),
  readText: () => Promise.reject(new Error('no resources')),
  exists: () => Promise.resolve(false),
  list: () => Promise.resolve([]),
};
