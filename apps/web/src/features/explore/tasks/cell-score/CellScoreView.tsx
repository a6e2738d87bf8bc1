import { Button, Card, Col, Row, Select, Space, Table, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CellScoreSummary } from '@cellcloud/contracts/tasks/cell-score';
import { fetchTaskFile, fetchTaskTableCsv, useTaskTable } from '../../../../api/tasks';
import { EChart } from '../../charts/EChart';
import { violinOption } from '../../charts/violinOption';
import type { NormalizedEmbedding } from '../../data/decode';
import { EmbeddingViewer } from '../../viewer/EmbeddingViewer';
import { downloadBlob } from '../../viewer/exportImage';
import { palette } from '../../viewer/palettes';
import type { WebTaskViewProps } from '../types';

/**
 * Result of a cell-score run: the embedding coloured by the chosen score, violins of the score
 * by any annotation level, the per-cell table (barcode + scores) and its CSV export.
 */
export function CellScoreView({ datasetId, task, outputs, client, manifest }: WebTaskViewProps) {
  const { t } = useTranslation('tasks');
  const summary = outputs.summary as CellScoreSummary;
  const scoreKeys = outputs.outputs.obs.map((o) => o.key);
  const [scoreKey, setScoreKey] = useState(scoreKeys[0] ?? '');
  const levels = manifest.obs.filter((o) => o.kind === 'categorical').map((o) => o.key);
  const [level, setLevel] = useState(levels.includes('cluster') ? 'cluster' : (levels[0] ?? ''));
  const embName = manifest.embeddings.find((e) => e.name === 'umap')?.name ?? manifest.embeddings[0]?.name;
  const [embedding, setEmbedding] = useState<NormalizedEmbedding | null>(null);
  const [scores, setScores] = useState<Float32Array | null>(null);
  const [groups, setGroups] = useState<{ labels: string[]; codes: Uint32Array } | null>(null);
  const table = useTaskTable(datasetId, task.id, 'scores');

  useEffect(() => {
    if (!embName) return;
    let live = true;
    void client.embedding(embName).then((e) => live && setEmbedding(e));
    return () => {
      live = false;
    };
  }, [client, embName]);
  useEffect(() => {
    const entry = outputs.outputs.obs.find((o) => o.key === scoreKey);
    if (!entry) return;
    let live = true;
    void fetchTaskFile(datasetId, task.id, entry.file).then((b) => live && setScores(new Float32Array(b)));
    return () => {
      live = false;
    };
  }, [datasetId, task.id, outputs, scoreKey]);
  useEffect(() => {
    if (!level) return;
    let live = true;
    void client
      .obs(level)
      .then(
        (c) =>
          live &&
          c.kind === 'categorical' &&
          setGroups({ labels: c.labels, codes: Uint32Array.from(c.codes) }),
      );
    return () => {
      live = false;
    };
  }, [client, level]);

  const colouring = useMemo(() => {
    if (!scores) return null;
    let min = Infinity;
    let max = -Infinity;
    for (const v of scores) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    const values = scores.map((v) => v - min);
    return { kind: 'continuous' as const, values, max: max - min };
  }, [scores]);

  const violin = useMemo(() => {
    if (!scores || !groups) return null;
    const per = groups.labels.map(() => [] as number[]);
    groups.codes.forEach((c, i) => per[c]?.push(scores[i]!));
    const keep = groups.labels.map((_, i) => i).filter((i) => per[i]!.length > 0);
    return violinOption(
      keep.map((i) => groups.labels[i]!),
      keep.map((i) => Float64Array.from(per[i]!)),
      [...palette('Default')],
      scoreKey,
    );
  }, [scores, groups, scoreKey]);

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="cell-score-view">
      <Typography.Text type="secondary" data-testid="cell-score-genes">
        {t('cellScore.view.genes', {
          used: summary.genesUsed.length,
          given: summary.genesGiven,
          genes: summary.genesUsed.join(', '),
        })}
        {summary.genesMissing.length > 0 &&
          ` ${t('cellScore.view.missing', { genes: summary.genesMissing.slice(0, 20).join(', ') })}`}
      </Typography.Text>
      <Space wrap>
        <span>{t('cellScore.view.score')}</span>
        <Select
          style={{ width: 240 }}
          value={scoreKey}
          onChange={setScoreKey}
          options={scoreKeys.map((k) => ({ value: k, label: k }))}
          data-testid="cell-score-select"
        />
        <span>{t('cellScore.view.groupBy')}</span>
        <Select
          style={{ width: 200 }}
          value={level}
          onChange={setLevel}
          options={levels.map((k) => ({ value: k, label: k }))}
        />
        <Button
          onClick={() =>
            void fetchTaskTableCsv(datasetId, task.id, 'scores').then((b) =>
              downloadBlob(b, `cell-score-${summary.name}.csv`),
            )
          }
          data-testid="cell-score-export"
        >
          {t('view.exportCsv')}
        </Button>
      </Space>
      <Row gutter={12}>
        <Col xs={24} lg={10}>
          <Card size="small" title={scoreKey} data-testid="cell-score-embedding">
            {embedding && colouring ? (
              <EmbeddingViewer
                x={embedding.x}
                y={embedding.y}
                colouring={colouring}
                mouseMode="panZoom"
                height={320}
              />
            ) : (
              <Typography.Text type="secondary">{t('view.loading')}</Typography.Text>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card size="small" title={t('cellScore.view.violin', { level })} data-testid="cell-score-violin">
            {violin && <EChart option={violin} fileName={`cell-score-${scoreKey}-${level}`} height={320} />}
          </Card>
        </Col>
      </Row>
      <Table
        size="small"
        data-testid="cell-score-table"
        loading={table.isLoading}
        rowKey={(r) => String(r[0])}
        dataSource={table.data?.rows ?? []}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        columns={(table.data?.columns ?? []).map((c, i) => ({
          title: c,
          key: c,
          render: (_: unknown, r: (string | number | null)[]) =>
            typeof r[i] === 'number' ? (r[i] as number).toFixed(4) : r[i],
        }))}
      />
    </Space>
  );
}
