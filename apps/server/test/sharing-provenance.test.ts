import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOWNLOADS_API, type DownloadView } from '@cellcloud/contracts/downloads';
import { anndataPython } from '../../../packages/engine/test/support/anndata';
import { completedJobWithArtifacts, storeAnalysisH5ad } from './support/explore';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';

/**
 * Issue 35: the h5ad export of a curated level carries its provenance — the level's authors and
 * last change in `uns['cellcloud_curation'][<column>]` — read back with Debian's anndata; the
 * methods report names them. The download is requested by a viewer of the shared analysis.
 */
describe('exports carry the provenance of curated levels', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof testUser>>;
  let editor: Awaited<ReturnType<typeof testUser>>;
  let viewer: Awaited<ReturnType<typeof testUser>>;
  let base: string;
  let jobId: string;
  const dir = mkdtempSync(path.join(tmpdir(), 'cellcloud-provenance-'));

  beforeAll(async () => {
    s = await createTestServer();
    await s.listen();
    [owner, editor, viewer] = [await testUser(s), await testUser(s), await testUser(s)];
    const job = await completedJobWithArtifacts(s, owner.user.id);
    jobId = job.id;
    base = `/api/user_datasets/${job.id}`;
    await storeAnalysisH5ad(s, job.id);
    for (const [u, role] of [
      [editor, 'editor'],
      [viewer, 'viewer'],
    ] as const)
      expect(
        (
          await s.request('POST', `${base}/shares`, {
            token: owner.token,
            body: { user: u.user.username, role },
          })
        ).status,
      ).toBe(200);
    const saved = await s.request('POST', `${base}/observation_annotation`, {
      token: owner.token,
      body: { key: 'cluster', name: 'Curated', renames: { '0': 'T cell' } },
    });
    const merged = await s.request('POST', `${base}/observation_merge_subset`, {
      token: editor.token,
      body: { subsetId: saved.body.data.id, labels: ['T cell', '1'], into: 'Lymphocyte' },
    });
    expect(merged.status).toBe(200);
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(!anndataPython)(
    'the viewer’s h5ad download names the level’s authors and last change (anndata)',
    async () => {
      const r = await s.request('POST', DOWNLOADS_API.create, {
        token: viewer.token,
        body: { datasetId: jobId, kind: 'h5ad' },
      });
      expect(r.status).toBe(200);
      let bytes: Uint8Array | undefined;
      for (let i = 0; i < 300 && !bytes; i++) {
        const v = (await s.request('GET', DOWNLOADS_API.one(r.body.data.id), { token: viewer.token })).body
          .data as DownloadView;
        if (v.exportState === 'failed') throw new Error('export failed');
        if (v.exportState === 'ready')
          bytes = new Uint8Array(await (await fetch(`${s.url}${v.url}`)).arrayBuffer());
        else await new Promise((res) => setTimeout(res, 100));
      }
      const file = path.join(dir, 'out.h5ad');
      writeFileSync(file, bytes!);
      const out = JSON.parse(
        execFileSync(
          anndataPython!,
          [
            '-c',
            String.raw`
import sys, json, anndata
a = anndata.read_h5ad(sys.argv[1])
p = a.uns["cellcloud_curation"]["Curated"]
print(json.dumps({"labels": [str(x) for x in a.obs["Curated"]], "authors": [str(x) for x in p["authors"]],
  "last_author": str(p["last_author"]), "last_action": str(p["last_action"]), "last_change": str(p["last_change"]),
  "version": int(p["version"]), "level": str(p["level"])}))
`,
            file,
          ],
          { encoding: 'utf8' },
        ),
      );
      expect(out.labels).toEqual(['Lymphocyte', 'Lymphocyte', 'Lymphocyte', 'Lymphocyte']);
      expect(out.authors).toEqual([owner.user.username, editor.user.username].sort());
      expect([out.last_author, out.last_action, out.level]).toEqual([
        editor.user.username,
        'relabel',
        'Curated',
      ]);
      expect(out.version).toBe(3);
      expect(Date.parse(out.last_change)).toBeGreaterThan(Date.now() - 600_000);
    },
  );

  it('the methods report names the curators and the last change, in both languages', async () => {
    for (const lang of ['en-US', 'zh-CN'] as const) {
      const md = (await s.request('GET', `${base}/methods?lang=${lang}`, { token: viewer.token })).body.data
        .markdown as string;
      expect(md).toContain(lang === 'en-US' ? '## Curated annotation levels' : '## 人工整理的注释层级');
      const line = md.split('\n').find((l) => l.startsWith('- Curated'))!;
      expect(line).toContain(editor.user.username);
      expect(line).toContain(owner.user.username);
      expect(line).toContain(lang === 'en-US' ? 'relabelled' : '修改标签');
    }
  });
});
