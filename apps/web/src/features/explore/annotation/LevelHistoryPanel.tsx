import { Alert, Button, Popconfirm, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HistoryEntryView } from '@cellcloud/contracts/sharing';
import { useLevelHistory, useRestoreVersion } from '../../../api/sharing';

interface Props {
  datasetId: string;
  /** `subset:<id>` of a saved level */
  levelKey: string;
  /** the level's current version (a restore names it: 409 when someone changed it meanwhile) */
  version: number;
  canEdit: boolean;
}

/**
 * History of a saved level (issue 35, docs/product/sharing.md#annotation-history): who changed
 * what and when, the cells affected and the before → after labels, and Restore of an earlier
 * version (itself recorded as a new version).
 */
export function LevelHistoryPanel({ datasetId, levelKey, version, canEdit }: Props) {
  const { t } = useTranslation('annotation');
  const history = useLevelHistory(datasetId, levelKey);
  const restore = useRestoreVersion(datasetId, levelKey);
  const [error, setError] = useState<string | null>(null);
  const changes = (h: HistoryEntryView) =>
    h.action === 'restore'
      ? t('history.restoredFrom', { version: h.restoredFrom })
      : h.changes
          .slice(0, 6)
          .map((c) => `${c.before || '–'} → ${c.after || '–'} (${c.cells})`)
          .join('; ');
  return (
    <>
      {error && <Alert type="error" showIcon message={error} data-testid="history-error" />}
      <Table
        size="small"
        rowKey="version"
        pagination={{ pageSize: 10 }}
        loading={history.isLoading}
        data-testid="level-history"
        dataSource={history.data ?? []}
        columns={[
          { key: 'version', title: t('history.version'), dataIndex: 'version', width: 70 },
          {
            key: 'action',
            title: t('history.action'),
            render: (_, h) => <Tag>{t(`history.actions.${h.action}`)}</Tag>,
          },
          {
            key: 'author',
            title: t('history.author'),
            render: (_, h) => (
              <span data-testid={`history-author-${h.version}`}>
                {h.author?.username ?? t('history.unknown')}
              </span>
            ),
          },
          {
            key: 'time',
            title: t('history.time'),
            render: (_, h) => dayjs(h.createdAt).format('YYYY-MM-DD HH:mm:ss'),
          },
          { key: 'cells', title: t('history.cells'), dataIndex: 'cells', width: 80 },
          {
            key: 'changes',
            title: t('history.changes'),
            render: (_, h) => <Typography.Text>{changes(h)}</Typography.Text>,
          },
          {
            key: 'restore',
            title: '',
            render: (_, h) =>
              canEdit && h.version !== version ? (
                <Popconfirm
                  title={t('history.restoreConfirm', { version: h.version })}
                  onConfirm={async () => {
                    setError(null);
                    try {
                      await restore.mutateAsync({ version: h.version, expectedVersion: version });
                    } catch (e) {
                      setError(e instanceof Error ? e.message : String(e));
                    }
                  }}
                >
                  <Button size="small" data-testid={`history-restore-${h.version}`}>
                    {t('history.restore')}
                  </Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
    </>
  );
}
