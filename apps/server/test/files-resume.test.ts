import { FILES_API } from '@cellcloud/contracts';
import { sharedData } from '@cellcloud/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { markFailed } from '../src/db/repos/uploads';
import { httpRequest, interruptedUploadScenario, restart, waitParsed } from './files-helpers';
import { createTestServer, type TestServer } from './support/harness';

/**
 * Resumable uploads: a connection dropped mid-file, then a new server instance (fresh HTTP
 * server, tus server and store objects on the same database and storage) continues from the
 * stored offset. Also: an upload left in 'parsing' by a crash is picked up again at start, and
 * a crash-failed parse can be retried.
 */
const have = sharedData('pbmc3k/10x/matrix.mtx.gz') !== undefined;

describe.skipIf(!have)('files: resumable uploads (local storage)', () => {
  let s: TestServer;
  afterAll(async () => {
    await s?.app.close();
    await s?.close();
  });

  it('an interrupted upload resumes from its offset on a new server instance', async () => {
    s = await createTestServer();
    await s.listen();
    const { token, row } = await interruptedUploadScenario(s);

    // A crash during parsing leaves 'parsing': the next start queues it again.
    await s.ctx.db.query(`UPDATE uploads SET state = 'parsing', progress = 0.3 WHERE id = $1`, [row.id]);
    const next = await restart(s, s.app);
    s.app = next.app;
    s.url = next.url;
    s.request = httpRequest(next.url);
    expect((await waitParsed(s, token, row.id)).state).toBe('completed');

    // A crash-failed parse is retryable; the originals were kept, so retry completes.
    await markFailed(s.ctx.db, row.id, 'files.failed.crash', { detail: 'worker killed' }, true);
    const failed = await s.request('GET', FILES_API.upload(row.id), { token });
    expect(failed.body.data.failure).toMatchObject({ retryable: true });
    expect(failed.body.data.failure.message).toMatch(/Parsing stopped unexpectedly \(worker killed\)/);
    const retry = await s.request('POST', FILES_API.retry(row.id), { token });
    expect(retry.status).toBe(200);
    expect((await waitParsed(s, token, row.id)).state).toBe('completed');
    const again = await s.request('POST', FILES_API.retry(row.id), { token });
    expect(again.status).toBe(409);
  });
});
