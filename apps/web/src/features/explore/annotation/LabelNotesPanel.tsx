import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Input, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { subsetView, type SubsetView } from '@cellcloud/contracts/explore';
import { request } from '../../../api/client';
import { subsetKeys } from '../../../api/explore';

/**
 * Per-label notes of a saved level and the marker genes that justified each label (issue 35,
 * docs/product/sharing.md#annotation-history): shown to every collaborator, edited by editors
 * and the owner at the version shown (a stale save answers 409 with the server's message).
 */
export function LabelNotesPanel({
  datasetId,
  level,
  canEdit,
}: {
  datasetId: string;
  level: SubsetView;
  canEdit: boolean;
}) {
  const { t } = useTranslation('annotation');
  const qc = useQueryClient();
  const [editing, setEditing] = useState<{ label: string; note: string; markers: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (e: { label: string; note: string; markers: string }) =>
      request(`/api/user_datasets/${encodeURIComponent(datasetId)}/observation_label_note`, {
        method: 'POST',
        body: {
          subsetId: level.id,
          label: e.label,
          note: e.note,
          markers: e.markers.split(/[\s,;]+/).filter(Boolean),
          expectedVersion: level.version,
        },
        schema: subsetView,
        handle: [400, 403, 404, 409],
      }),
    onSettled: () => qc.invalidateQueries({ queryKey: subsetKeys.list(datasetId) }),
  });
  const submit = async () => {
    if (!editing) return;
    setError(null);
    try {
      await save.mutateAsync(editing);
      setEditing(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="label-notes">
      {error && <Alert type="error" showIcon message={error} />}
      <Table
        size="small"
        rowKey="label"
        pagination={false}
        scroll={{ y: 320 }}
        dataSource={level.labels.map((label) => ({
          label,
          ...(level.notes[label] ?? { note: '', markers: [] }),
        }))}
        columns={[
          { key: 'label', title: t('edit.label'), dataIndex: 'label', width: 160 },
          {
            key: 'note',
            title: t('notes.note'),
            render: (_, r) =>
              editing?.label === r.label ? (
                <Input.TextArea
                  autoSize
                  maxLength={2000}
                  value={editing.note}
                  onChange={(e) => setEditing({ ...editing, note: e.target.value })}
                />
              ) : (
                r.note
              ),
          },
          {
            key: 'markers',
            title: t('notes.markers'),
            render: (_, r) =>
              editing?.label === r.label ? (
                <Input
                  placeholder={t('notes.markersPlaceholder')}
                  value={editing.markers}
                  onChange={(e) => setEditing({ ...editing, markers: e.target.value })}
                />
              ) : (
                r.markers.map((m) => <Tag key={m}>{m}</Tag>)
              ),
          },
          {
            key: 'edit',
            title: '',
            width: 150,
            render: (_, r) =>
              !canEdit ? null : editing?.label === r.label ? (
                <Space size={4}>
                  <Button size="small" type="primary" loading={save.isPending} onClick={() => void submit()}>
                    {t('notes.save')}
                  </Button>
                  <Button size="small" onClick={() => setEditing(null)}>
                    {t('notes.cancel')}
                  </Button>
                </Space>
              ) : (
                <Button
                  size="small"
                  onClick={() => setEditing({ label: r.label, note: r.note, markers: r.markers.join(', ') })}
                >
                  {t('notes.edit')}
                </Button>
              ),
          },
        ]}
      />
    </Space>
  );
}
