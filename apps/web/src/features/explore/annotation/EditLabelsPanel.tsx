import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Input, Modal, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { subsetKeys, useSubsetAction } from '../../../api/explore';
import { changedRenames, checkEdit } from './annotationStats';

interface Props {
  datasetId: string;
  /** level being edited: an obs key or `subset:<id>` */
  levelKey: string;
  labels: string[];
  counts: number[];
  onSaved: (subsetId: string) => void;
  /** a saved level: its id and the version shown (saving in place names it; docs/product/sharing.md) */
  saved?: { id: string; version: number };
  /** the caller is a viewer of a shared analysis (saving is refused by the server, translated) */
  viewer?: boolean;
}

/**
 * Hand edit of a level (issue 13): rename labels, or give several labels one name to merge them,
 * then save the result as a NEW level (the original stays): a copy of the level (subset `copy`)
 * with the renames applied (`observation_edit_subset`), so it persists on the server, appears in
 * every group picker and in the downloaded h5ad. docs/product/validation.md#annotation-and-cluster-names name rules are checked before saving.
 */
export function EditLabelsPanel({ datasetId, levelKey, labels, counts, onSaved, saved, viewer }: Props) {
  const { t } = useTranslation('annotation');
  const action = useSubsetAction(datasetId);
  const qc = useQueryClient();
  const [conflict, setConflict] = useState<string | null>(null);
  const [names, setNames] = useState<Record<string, string>>({});
  const [levelName, setLevelName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const renames = changedRenames(names);
  const check = checkEdit(levelName, renames);
  const canSave = levelName.trim() !== '' && !check.levelInvalid && check.badLabels.length === 0;
  const canSaveInPlace = Object.keys(renames).length > 0 && check.badLabels.length === 0;

  /** Saves the renames into the saved level at the version shown; 409 → the conflict dialog. */
  const saveInPlace = async () => {
    if (!saved) return;
    setError(null);
    try {
      await action.mutateAsync({
        kind: 'edit',
        body: { subsetId: saved.id, renames, expectedVersion: saved.version },
      });
      setNames({});
      onSaved(saved.id);
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) setConflict(e.message);
      else setError(e instanceof Error ? e.message : String(e));
    }
  };
  const loadTheirs = async () => {
    setConflict(null);
    setNames({});
    await qc.invalidateQueries({ queryKey: subsetKeys.list(datasetId) });
  };

  const save = async () => {
    setError(null);
    try {
      const copy = await action.mutateAsync({
        kind: 'create',
        body: { from: 'copy', name: levelName.trim(), key: levelKey },
      });
      if (!copy) return;
      if (Object.keys(renames).length)
        await action.mutateAsync({ kind: 'edit', body: { subsetId: copy.id, renames } });
      setNames({});
      setLevelName('');
      onSaved(copy.id);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="annotation-edit">
      <Typography.Text type="secondary">{t('edit.help')}</Typography.Text>
      {viewer && (
        <Alert type="info" showIcon message={t('edit.viewerOnly')} data-testid="annotation-viewer" />
      )}
      <Table
        size="small"
        rowKey="label"
        pagination={false}
        scroll={{ y: 320 }}
        dataSource={labels.map((label, i) => ({ label, cells: counts[i] ?? 0 }))}
        columns={[
          { title: t('edit.label'), dataIndex: 'label' },
          { title: t('edit.cells'), dataIndex: 'cells', width: 90 },
          {
            title: t('edit.newName'),
            render: (_: unknown, r: { label: string }) => (
              <Input
                size="small"
                data-testid={`rename-${r.label}`}
                placeholder={r.label}
                value={names[r.label] ?? ''}
                status={check.badLabels.includes(r.label) ? 'error' : undefined}
                onChange={(e) => setNames((n) => ({ ...n, [r.label]: e.target.value }))}
              />
            ),
          },
        ]}
      />
      {check.badLabels.length > 0 && <Alert type="error" showIcon message={t('edit.labelInvalid')} />}
      <Space wrap>
        <span>{t('edit.levelName')}</span>
        <Input
          style={{ width: 240 }}
          data-testid="annotation-level-name"
          value={levelName}
          status={levelName && check.levelInvalid ? 'error' : undefined}
          onChange={(e) => setLevelName(e.target.value)}
        />
        <Button
          type="primary"
          data-testid="annotation-save"
          disabled={!canSave}
          loading={action.isPending}
          onClick={() => void save()}
        >
          {t('edit.save')}
        </Button>
        {saved && (
          <Button
            data-testid="annotation-save-in-place"
            disabled={!canSaveInPlace}
            loading={action.isPending}
            onClick={() => void saveInPlace()}
          >
            {t('edit.saveInPlace')}
          </Button>
        )}
      </Space>
      {levelName && check.levelInvalid && <Alert type="error" showIcon message={t('edit.levelInvalid')} />}
      {error && <Alert type="error" showIcon message={error} data-testid="annotation-error" />}
      <Modal
        open={conflict !== null}
        title={t('edit.conflictTitle')}
        onCancel={() => setConflict(null)}
        onOk={() => void loadTheirs()}
        okText={t('edit.conflictLoad')}
        okButtonProps={{ 'data-testid': 'annotation-conflict-load' } as Record<`data-${string}`, string>}
      >
        <Alert type="warning" showIcon message={conflict} data-testid="annotation-conflict" />
        <Typography.Paragraph style={{ marginTop: 8 }}>{t('edit.conflictHelp')}</Typography.Paragraph>
      </Modal>
    </Space>
  );
}
