import { Table, Typography } from 'antd';
import { useEffect, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import {
  ANNOTATION_SOURCE,
  confidenceColumn,
  LABEL_TRANSFER_ARTIFACT,
  TRANSFERRED_LEVELS,
  type LabelTransferSummary as Summary,
} from '@cellcloud/contracts/label-transfer';
import type { ArtifactClient } from '../data/ArtifactClient';
import type { ObsColumn } from '../data/protocol';
import { levelLabelKey } from '../annotationLevels';
import { transferStats, type TransferRow, type TransferStats } from './labelTransferStats';

interface Props {
  client: ArtifactClient;
  manifest: ArtifactManifest;
  /** The column the embedding is coloured by (shown only for a transferred level). */
  column: ObsColumn | null;
}

const pct = (x: number) => (Number.isFinite(x) ? `${Math.round(x * 100)} %` : '—');

/**
 * Under the embedding, when it is coloured by a level transferred from public datasets (issue 20):
 * the user's cells assigned per type with their mean confidence, and the cells left unassigned.
 */
export function LabelTransferSummary({ client, manifest, column }: Props) {
  const { t } = useTranslation('labeltransfer');
  const key = column?.kind === 'categorical' ? column.key : null;
  const applies =
    key !== null &&
    (TRANSFERRED_LEVELS as readonly string[]).includes(key) &&
    manifest.obs.some((o) => o.key === ANNOTATION_SOURCE);
  const [stats, setStats] = useState<TransferStats | null>(null);
  const [rule, setRule] = useState<Summary | null>(null);
  useEffect(() => {
    setStats(null);
    if (!applies || column?.kind !== 'categorical') return;
    let live = true;
    const conf = confidenceColumn(column.key);
    void (async () => {
      const source = await client.obs(ANNOTATION_SOURCE);
      const c = manifest.obs.some((o) => o.key === conf) ? await client.obs(conf) : undefined;
      if (live && source.kind === 'categorical')
        setStats(transferStats(column, source, c?.kind === 'numeric' ? c : undefined));
    })().catch(() => undefined);
    client.json<Summary>(LABEL_TRANSFER_ARTIFACT).then(
      (s) => live && setRule(s),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [applies, client, column, manifest]);
  if (!applies || !stats || !key) return null;
  const levelKey = levelLabelKey(key);
  return (
    <div data-testid="label-transfer-summary" style={{ marginTop: 8 }}>
      <Typography.Text strong>{t('title', { level: levelKey ? t(levelKey) : key })}</Typography.Text>
      <div data-testid="label-transfer-totals">
        {t('totals', { assigned: stats.assigned, total: stats.queryCells, unassigned: stats.unassigned })}
      </div>
      {rule && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('rule', { k: rule.k, threshold: pct(rule.minConfidence) })}
        </Typography.Text>
      )}
      <Table<TransferRow>
        size="small"
        rowKey="label"
        pagination={false}
        style={{ maxWidth: 520, marginTop: 4 }}
        dataSource={stats.rows}
        onRow={() => ({ 'data-testid': 'label-transfer-row' }) as HTMLAttributes<HTMLElement>}
        columns={[
          { key: 'label', title: t('type'), dataIndex: 'label' },
          { key: 'cells', title: t('cells'), dataIndex: 'cells', align: 'right' },
          {
            key: 'confidence',
            title: t('meanConfidence'),
            align: 'right',
            render: (_, r) => pct(r.meanConfidence),
          },
        ]}
        summary={() =>
          stats.unassigned ? (
            <Table.Summary.Row data-testid="label-transfer-unassigned">
              <Table.Summary.Cell index={0}>{t('unassigned')}</Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                {stats.unassigned}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">
                {pct(stats.unassignedMeanConfidence)}
              </Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
      />
    </div>
  );
}
