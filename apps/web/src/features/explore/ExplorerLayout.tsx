import { Alert, Empty, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_DISPLAY_SWITCHES } from '@cellcloud/contracts/privileges';
import { useAccountInfo } from '../../api/account';
import { useTasks } from '../../api/tasks';
import { useSession } from '../../api/session';
import { canUse } from '../../app/shell/privilegeAccess';
import { ResourceUnavailable } from '../../shared/ResourceUnavailable';
import { RequestDownloadButton } from '../downloads/RequestDownloadButton';
import { MethodsReport } from './MethodsReport';
import { ArtifactRequestError } from './data/ArtifactClient';
import { useArtifactClient } from './data/useArtifactClient';
import { ExplorerWorkspace, type ExploreAccess } from './ExplorerWorkspace';

export interface ExplorerLayoutProps {
  title: string;
  datasetId: string | null;
}

/** Page frame of the explorer: title, the result's viewer and tabs; empty state without an id. */
export function ExplorerLayout({ title, datasetId }: ExplorerLayoutProps) {
  const { t } = useTranslation('explore');
  const { t: tp } = useTranslation('publicdb');
  const session = useSession();
  // a public database dataset's standard analysis (issue 20): shared, read only
  const readOnly = datasetId?.startsWith('public:') ?? false;
  const info = useAccountInfo();
  const state = useArtifactClient(datasetId, session?.token ?? null);
  const privileges = info.data?.privileges ?? [];
  const access: ExploreAccess = {
    tab: (permission) => {
      if (permission === null) return 'enabled';
      const entry = privileges.find((p) => p.permission === permission);
      if (entry?.hidden) return 'hidden';
      return canUse(privileges, permission) ? 'enabled' : 'disabled';
    },
    canonicalMarkers: (info.data?.switches ?? DEFAULT_DISPLAY_SWITCHES).canonicalMarkers,
  };

  return (
    <div style={{ padding: 16 }}>
      {/* wraps instead of squeezing: at 390 px the title kept a sliver and broke letter by letter */}
      <div
        data-testid="explore-header"
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          justifyContent: 'space-between',
          alignItems: 'baseline',
          gap: 8,
        }}
      >
        <Space align="baseline" wrap style={{ flex: '1 1 240px', minWidth: 0 }}>
          <Typography.Title level={3} style={{ overflowWrap: 'break-word' }}>
            {title}
          </Typography.Title>
          {readOnly && (
            <Tag color="blue" data-testid="explore-readonly">
              {tp('preview.readOnlyTag')}
            </Tag>
          )}
        </Space>
        {state.status === 'ready' && datasetId && !readOnly && (
          <Space wrap>
            <MethodsReport datasetId={datasetId} />
            {state.manifest.h5ad && <RequestDownloadButton datasetId={datasetId} />}
          </Space>
        )}
      </div>
      {datasetId === null ? (
        <Empty description={t('page.noDataset')} />
      ) : state.status === 'loading' || info.isLoading ? (
        <Spin tip={t('page.loading')}>
          <div style={{ height: 200 }} />
        </Spin>
      ) : state.status === 'error' ? (
        <LoadError error={state.error} />
      ) : (
        <>
          {readOnly && (
            <Alert type="info" showIcon title={tp('preview.readOnlyHint')} style={{ marginBottom: 12 }} />
          )}
          {!readOnly && <RefreshOnTaskCompletion datasetId={datasetId} refresh={state.refresh} />}
          <ExplorerWorkspace
            readOnly={readOnly}
            datasetId={datasetId}
            client={state.client}
            manifest={state.manifest}
            access={access}
          />
        </>
      )}
    </div>
  );
}

/**
 * Reads the result's manifest again when one of its analysis tasks completes while the explorer
 * is open: the server lists what completed tasks add (per-cell columns, and layouts computed on
 * demand, which join the embedding choice: server services/tasks/explorer-obs.ts).
 */
function RefreshOnTaskCompletion({ datasetId, refresh }: { datasetId: string; refresh: () => void }) {
  const tasks = useTasks(datasetId);
  const completed = (tasks.data ?? [])
    .filter((t) => t.status === 'completed')
    .map((t) => t.id)
    .sort()
    .join(',');
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (!tasks.isSuccess) return;
    if (seen.current !== null && seen.current !== completed) refresh();
    seen.current = completed;
  }, [tasks.isSuccess, completed, refresh]);
  return null;
}

/**
 * Why the result could not be opened, in the reader's language (issue 22 item 1): another user's
 * or a deleted id → docs/product/errors.md#status-handling "Resource does not exist"; not finished → say so; anything else →
 * refresh advice. The internal request detail is never shown.
 */
function LoadError({ error }: { error: Error }) {
  const { t } = useTranslation('explore');
  const status = error instanceof ArtifactRequestError ? error.status : undefined;
  if (status === 404 || status === 403) return <ResourceUnavailable />;
  return <Alert type="error" showIcon title={t(status === 409 ? 'page.notReady' : 'page.loadFailed')} />;
}
