import { describe, expect, it } from 'vitest';
import type { DownloadView } from '@cellcloud/contracts/downloads';
import { fileActions } from '../../src/features/analyses/resultFileActions';

const base: DownloadView = {
  id: 'd1',
  datasetId: 'job1',
  jobName: 'pbmc',
  kind: 'h5ad',
  fileName: 'analysis.h5ad',
  status: 'pending',
  exportState: 'waiting',
  fileSize: null,
  validDays: 7,
  requestedAt: '2026-11-20T10:00:00.000Z',
  decidedAt: null,
  expiresAt: null,
  declineReason: null,
  url: null,
};
const dl = (over: Partial<DownloadView>): DownloadView => ({ ...base, ...over });

describe('result file actions (My Analyses → Result files)', () => {
  it('offers the h5ad, the Seurat bundle and the figures for analysis.h5ad, the table and all tables for markers.csv, nothing for a task file', () => {
    expect(fileActions({ datasetId: 'job1', downloadKind: 'h5ad' }, [])).toEqual([
      { kind: 'h5ad', state: 'request' },
      { kind: 'seurat', state: 'request' },
      { kind: 'figures', state: 'request' },
    ]);
    expect(fileActions({ datasetId: 'job1', downloadKind: 'markers' }, [])).toEqual([
      { kind: 'markers', state: 'request' },
      { kind: 'tables', state: 'request' },
    ]);
    expect(fileActions({ datasetId: 'job1', downloadKind: null }, [])).toEqual([]);
  });

  it('follows the request: pending, then being prepared, then ready with its signed link', () => {
    const file = { datasetId: 'job1', downloadKind: 'h5ad' as const };
    expect(fileActions(file, [dl({})])[0]).toEqual({ kind: 'h5ad', state: 'pending' });
    expect(fileActions(file, [dl({ status: 'approved', exportState: 'running' })])[0]!.state).toBe(
      'preparing',
    );
    const ready = dl({
      status: 'approved',
      exportState: 'ready',
      url: '/api/downloads/d1/file?exp=1&sig=abc',
      expiresAt: '2026-11-27T10:00:00.000Z',
    });
    expect(fileActions(file, [ready])).toEqual([
      {
        kind: 'h5ad',
        state: 'ready',
        url: '/api/downloads/d1/file?exp=1&sig=abc',
        expiresAt: '2026-11-27T10:00:00.000Z',
      },
      { kind: 'seurat', state: 'request' },
      { kind: 'figures', state: 'request' },
    ]);
    // a newer pending request does not hide a link that still works
    const newer = dl({ id: 'd2', requestedAt: '2026-11-21T10:00:00.000Z' });
    expect(fileActions(file, [newer, ready])[0]!.state).toBe('ready');
  });

  it("ignores other results' and other kinds' requests, declined ones and failed exports", () => {
    const file = { datasetId: 'job1', downloadKind: 'markers' as const };
    expect(fileActions(file, [dl({ datasetId: 'job2', kind: 'markers' })])[0]!.state).toBe('request');
    expect(fileActions(file, [dl({ kind: 'h5ad' })])[0]!.state).toBe('request');
    expect(fileActions(file, [dl({ kind: 'markers', status: 'declined' })])[0]!.state).toBe('request');
    expect(
      fileActions(file, [dl({ kind: 'markers', status: 'approved', exportState: 'failed' })])[0]!.state,
    ).toBe('request');
  });
});
