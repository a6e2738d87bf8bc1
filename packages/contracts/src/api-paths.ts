/**
 * API paths of the jobs, drafts, notifications and explore areas, written once for the server's
 * routes (`ROUTES`, Fastify patterns) and the web's calls (`PATHS`, builders). Analysis tasks have
 * theirs in tasks/api.ts.
 */
const enc = encodeURIComponent;
const NOTIFICATIONS = '/api/database-api/celeLens/user/notifications';

export const ROUTES = {
  jobs: {
    list: '/api/jobs',
    events: '/api/jobs/events',
    one: '/api/jobs/:id',
    suspend: '/api/jobs/:id/suspend',
    resume: '/api/jobs/:id/resume',
    reedit: '/api/jobs/:id/reedit',
  },
  drafts: {
    samples: '/api/wizard/samples',
    list: '/api/drafts',
    one: '/api/drafts/:id',
    cellFiltering: '/api/drafts/:id/cell-filtering',
  },
  notifications: { base: NOTIFICATIONS },
  explore: {
    /** `/api/user_datasets/:id` — `id` is the analysis job id (docs/glossary.md "dataset"). */
    dataset: '/api/user_datasets/:id',
  },
} as const;

export const PATHS = {
  jobs: {
    list: ROUTES.jobs.list,
    events: ROUTES.jobs.events,
    one: (id: string) => `/api/jobs/${enc(id)}`,
    suspend: (id: string) => `/api/jobs/${enc(id)}/suspend`,
    resume: (id: string) => `/api/jobs/${enc(id)}/resume`,
    reedit: (id: string) => `/api/jobs/${enc(id)}/reedit`,
  },
  drafts: {
    samples: ROUTES.drafts.samples,
    list: ROUTES.drafts.list,
    one: (id: string) => `/api/drafts/${enc(id)}`,
    cellFiltering: (id: string) => `/api/drafts/${enc(id)}/cell-filtering`,
  },
  notifications: { base: NOTIFICATIONS },
  explore: {
    dataset: (datasetId: string) => `/api/user_datasets/${enc(datasetId)}`,
  },
} as const;
