import type { JobView } from '@cellcloud/contracts';
import { jobsDeps } from '../../src/services/jobs-wire';
import type { TestServer } from './harness';
import { signUp } from './accounts';

/** A signed-up user: token for HTTP and id for service calls. */
export async function testUser(s: TestServer) {
  const { token } = await signUp(s);
  const user = await s.ctx.auth.resolve(token);
  if (!user || user === 'expired') throw new Error('token of a fresh user did not resolve');
  return { token, user };
}

/** Polls a job through the API until `until` holds (or throws with the last state). */
export async function waitJob(
  s: TestServer,
  token: string,
  id: string,
  until: (j: JobView) => boolean,
  timeoutMs = 90_000,
): Promise<JobView> {
  const end = Date.now() + timeoutMs;
  let last: JobView | undefined;
  while (Date.now() < end) {
    const r = await s.request('GET', `/api/jobs/${id}`, { token });
    last = r.body?.data as JobView;
    if (last && until(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`job ${id} did not reach the expected state; last: ${JSON.stringify(last)}`);
}

export const diagnostic = (
  s: TestServer,
  userId: string,
  name: string,
  opts: { sleepMs?: number; failTimes?: number } = {},
) => jobsDeps(s.ctx).jobs.createDiagnostic(userId, name, opts);

export async function jobRow(s: TestServer, id: string) {
  const [row] = await s.ctx.db.query<{
    status: string;
    attempt: number;
    completions: number;
    worker: string | null;
    message: string | null;
  }>('SELECT status, attempt, completions, worker, message FROM analysis_jobs WHERE id = $1', [id]);
  return row!;
}
