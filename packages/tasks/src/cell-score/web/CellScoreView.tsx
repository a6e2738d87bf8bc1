import { Button, Card, Col, Row, Select, Space, Table, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTaskHost, type TaskViewProps } from '../../_shared/web/host';
import { useTaskOutput } from '../../_shared/web/useTaskOutput';
import type { CellScoreSummary } from '../contract';
import { scoreViolinOption } from '../figures';

/**
 * Result of a cell-score run: the embedding coloured by the chosen score, violins of the score
 * by any annotation level, the per-cell table (barcode + scores) and its CSV export.
 */
export function CellScoreView(props: TaskViewProps) {
  const { datasetId, task, outputs, client, manifest } = props;
  const { t } = useTranslation('tasks');
  const { api, components, download } = useTaskHost();
  const { Chart, Embedding } = components;
  const summary = outputs.summary as CellScoreSummary;
  const scoreKeys = outputs.outputs.obs.map((o) => o.key);
  const [scoreKey, setScoreKey] = useState(scoreKeys[0] ?? '');
  const levels = manifest.obs.filter((o) => o.kind === 'categorical').map((o) => o.key);
  const [level, setLevel] = useState(levels.includes('cluster') ? 'cluster' : (levels[0] ?? ''));
  const embName = manifest.embeddings.find((e) => e.name === 'umap')?.name ?? manifest.embeddings[0]?.name;
  const [embedding, setEmbedding] = useState<{ x: Float32Array; y: Float32Array } | null>(null);
  const [groups, setGroups] = useState<{ labels: string[]; codes: Uint32Array } | null>(null);
  const table = useTaskOutput(props, { table: 'scores', limit: 10_000 });
  const scoreFile = outputs.outputs.obs.find((o) => o.key === scoreKey)?.file;
  const scoreBytes = useTaskOutput(props, scoreFile ? { file: scoreFile } : null);
  const scores = useMemo(
    () => (scoreBytes.data ? new Float32Array(scoreBytes.data) : null),
    [scoreBytes.data],
  );

  useEffect(() => {
    if (!embName) return;
    let live = true;
    void client.embedding(embName).then((e) => live && setEmbedding(e));
    return () => {
      live = false;
    };
  }, [client, embName]);
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

  const violin = useMemo(
    () => (scores && groups ? scoreViolinOption(groups.labels, groups.codes, scores, scoreKey, level) : null),
    [scores, groups, scoreKey, level],
  );

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
            void api
              .tableCsv(datasetId, task.id, 'scores')
              .then((b) => download(b, `cell-score-${summary.name}.csv`))
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
              <Embedding
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
            {violin && <Chart option={violin} fileName={`cell-score-${scoreKey}-${level}`} height={320} />}
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
          render: (_: unknown, r: (string | number | boolean | null)[]) =>
            typeof r[i] === 'number' ? (r[i] as number).toFixed(4) : r[i],
        }))}
      />
    </Space>
  );
}
