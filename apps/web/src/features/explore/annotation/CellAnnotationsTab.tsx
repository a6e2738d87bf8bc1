import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Radio, Row, Select, Space, Spin, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { annotate } from '@cellcloud/tasks/contract';
import { COMMON_TASK_MESSAGES } from '@cellcloud/contracts/tasks/common-messages';
import { fetchAnnotationArtifact } from '../../../api/annotation';
import { fetchSubsetCodes } from '../../../api/explore';
import { categoricalColumns, embeddingChoices, levelLabelKey } from '../annotationLevels';
import type { NormalizedEmbedding } from '../data/decode';
import type { TabProps } from '../tabs/registry';
import { EmbeddingViewer } from '../viewer/EmbeddingViewer';
import { palette } from '../viewer/palettes';
import type { Colouring } from '../viewer/scatterPoints';
import { clusterLabelTable, confidencePerCell, type ClusterSummary } from './annotationStats';
import { EditLabelsPanel } from './EditLabelsPanel';
import { LabelNotesPanel } from './LabelNotesPanel';
import { LevelHistoryPanel } from './LevelHistoryPanel';
import { useDatasetRole } from '../../../api/sharing';
import { MarkerDotPlot } from './MarkerDotPlot';

interface Level {
  key: string;
  labels: string[];
  codes: Uint32Array;
}

const AUTO = /^annot_/;

/**
 * Cell Annotations tab (issue 13, docs/product/screens.md#explorer-tabs, docs/product/entities.md#annotation-levels): every annotation level (automatic `annot_*`, the
 * upload's own columns, hand-edited levels saved as subsets) on the embedding, with the per-cluster
 * majority label and its confidence, a cluster × label table with scores, the reference's marker
 * evidence as a dot plot, and hand edits (rename / merge) saved as a new level or into a saved
 * level at the version shown, with the saved level's attributed history (docs/product/sharing.md).
 */
export function CellAnnotationsTab({ client, datasetId, subsets, manifest }: TabProps) {
  const { t, i18n } = useTranslation('annotation');
  const { t: tx } = useTranslation('explore');
  const cats = useMemo(() => {
    const c = categoricalColumns(manifest);
    return [...c.filter((o) => AUTO.test(o.key)), ...c.filter((o) => !AUTO.test(o.key))];
  }, [manifest]);
  const levelOptions = [
    ...cats.map((c) => ({ value: c.key, label: levelLabelKey(c.key) ? tx(levelLabelKey(c.key)!) : c.key })),
    ...subsets.map((s) => ({ value: `subset:${s.id}`, label: s.name })),
  ];
  const hasAuto = cats.some((c) => c.key === 'annot_auto');
  const [levelKey, setLevelKey] = useState(
    cats.find((c) => c.key === 'annot_auto')?.key ?? cats[0]?.key ?? '',
  );
  const [clusterKey, setClusterKey] = useState(
    cats.find((c) => c.key === 'cluster')?.key ?? cats[0]?.key ?? '',
  );
  const [colourBy, setColourBy] = useState<'level' | 'confidence'>('level');
  const [level, setLevel] = useState<Level | null>(null);
  const [cluster, setCluster] = useState<Level | null>(null);
  const [score, setScore] = useState<Float32Array | undefined>();
  const [emb, setEmb] = useState<NormalizedEmbedding | null>(null);
  const emb2d = embeddingChoices(manifest).find((e) => e.dims === 2);
  const role = useDatasetRole(datasetId);
  const savedLevel = subsets.find((x) => `subset:${x.id}` === levelKey);
  const artifact = useQuery({
    queryKey: ['annotation', 'artifact', datasetId],
    queryFn: () => fetchAnnotationArtifact(datasetId!),
    enabled: datasetId !== null,
  });

  useEffect(() => {
    if (emb2d) void client.embedding(emb2d.name).then(setEmb);
  }, [client, emb2d]);
  useEffect(() => {
    if (!manifest.obs.some((o) => o.key === 'annot_auto_score')) return;
    void client.obs('annot_auto_score').then((o) => o.kind === 'numeric' && setScore(o.values));
  }, [client, manifest]);
  useEffect(() => {
    let live = true;
    const load = async (key: string): Promise<Level | null> => {
      if (key.startsWith('subset:')) {
        const s = subsets.find((x) => `subset:${x.id}` === key);
        if (!s || datasetId === null) return null;
        return { key, labels: s.labels, codes: await fetchSubsetCodes(datasetId, s.id) };
      }
      const o = await client.obs(key);
      return o.kind === 'categorical' ? { key, labels: o.labels, codes: o.codes } : null;
    };
    if (levelKey) void load(levelKey).then((l) => live && setLevel(l));
    if (clusterKey) void load(clusterKey).then((l) => live && setCluster(l));
    return () => {
      live = false;
    };
  }, [client, datasetId, subsets, levelKey, clusterKey]);

  const table: ClusterSummary[] = useMemo(
    () =>
      level && cluster
        ? clusterLabelTable(
            cluster.codes,
            cluster.labels,
            level.codes,
            level.labels,
            AUTO.test(level.key) ? score : undefined,
          )
        : [],
    [level, cluster, score],
  );
  const colouring: Colouring | null = useMemo(() => {
    if (!level || !cluster) return null;
    if (colourBy === 'confidence')
      return { kind: 'continuous', values: confidencePerCell(cluster.codes, cluster.labels, table), max: 1 };
    const p = palette('Default');
    return { kind: 'categorical', codes: level.codes, colours: level.labels.map((_, i) => p[i % p.length]!) };
  }, [level, cluster, table, colourBy]);

  if (!cats.length) return <Alert type="info" showIcon message={t('noLevels')} />;
  const counts = level
    ? level.labels.map((_, i) => level.codes.reduce((a, c) => a + (c === i ? 1 : 0), 0))
    : [];
  const detail = table.flatMap((c) => c.rows.map((r) => ({ ...r, key: `${r.cluster}\u0000${r.label}` })));

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="tab-cellAnnotations">
      {artifact.data?.failure && (
        <Alert
          type="error"
          showIcon
          data-testid="annotation-failed"
          message={t('failed', { reason: failureText(artifact.data.failure, i18n.language) })}
        />
      )}
      {!hasAuto && !artifact.data?.failure && (
        <Alert type="info" showIcon message={t('noAuto')} data-testid="annotation-no-auto" />
      )}
      {artifact.data?.summary && (
        <Typography.Text type="secondary" data-testid="annotation-reference">
          {t('reference', {
            reference: artifact.data.summary.reference,
            tissue: artifact.data.summary.tissue,
          })}
        </Typography.Text>
      )}
      <Space wrap>
        <span>{t('level')}</span>
        <Select
          data-testid="annotation-level"
          value={levelKey}
          style={{ width: 220 }}
          onChange={setLevelKey}
          options={levelOptions}
        />
        <span>{t('clusterLevel')}</span>
        <Select value={clusterKey} style={{ width: 180 }} onChange={setClusterKey} options={levelOptions} />
        <Radio.Group
          value={colourBy}
          onChange={(e) => setColourBy(e.target.value as 'level' | 'confidence')}
          options={[
            { value: 'level', label: t('colourLevel') },
            { value: 'confidence', label: t('colourConfidence') },
          ]}
        />
      </Space>
      {!level || !cluster ? (
        <Spin />
      ) : (
        <Row gutter={16}>
          <Col xs={24} lg={12}>
            <Card size="small" title={t('embedding')}>
              {emb && colouring ? (
                <EmbeddingViewer x={emb.x} y={emb.y} colouring={colouring} mouseMode="panZoom" height={380} />
              ) : (
                <Spin />
              )}
              <Space wrap size={4} style={{ marginTop: 8 }}>
                {colourBy === 'level' &&
                  level.labels.map((l, i) => (
                    <Tag key={l} color={palette('Default')[i % palette('Default').length]}>
                      {l}
                    </Tag>
                  ))}
              </Space>
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card size="small" title={t('perCluster')}>
              <Table
                size="small"
                rowKey="cluster"
                pagination={false}
                scroll={{ y: 380 }}
                data-testid="annotation-clusters"
                dataSource={table}
                columns={[
                  { title: t('cluster'), dataIndex: 'cluster', width: 90 },
                  { title: t('label'), dataIndex: 'label' },
                  { title: t('cells'), dataIndex: 'cells', width: 80 },
                  {
                    title: t('confidence'),
                    dataIndex: 'confidence',
                    width: 110,
                    render: (v: number) => `${(v * 100).toFixed(1)}%`,
                  },
                ]}
              />
            </Card>
          </Col>
        </Row>
      )}
      <Card size="small" title={t('table')}>
        <Table
          size="small"
          rowKey="key"
          pagination={{ pageSize: 20 }}
          dataSource={detail}
          columns={[
            { title: t('cluster'), dataIndex: 'cluster' },
            { title: t('label'), dataIndex: 'label' },
            { title: t('cells'), dataIndex: 'cells' },
            {
              title: t('fraction'),
              dataIndex: 'fraction',
              render: (v: number) => `${(v * 100).toFixed(1)}%`,
            },
            {
              title: t('score'),
              dataIndex: 'meanScore',
              render: (v: number | null) => (v === null ? '–' : v.toFixed(3)),
            },
          ]}
        />
      </Card>
      {hasAuto && (
        <Card size="small" title={t('dotplot.title')}>
          {artifact.isLoading ? <Spin /> : <MarkerDotPlot data={artifact.data?.dotplot ?? null} />}
        </Card>
      )}
      {datasetId !== null && level && (
        <Card size="small" title={t('edit.title')}>
          <EditLabelsPanel
            key={`${level.key}@${savedLevel?.version ?? 0}`}
            datasetId={datasetId}
            levelKey={level.key}
            labels={level.labels}
            counts={counts}
            onSaved={(id) => setLevelKey(`subset:${id}`)}
            saved={savedLevel ? { id: savedLevel.id, version: savedLevel.version } : undefined}
            viewer={role.data?.role === 'viewer'}
          />
        </Card>
      )}
      {datasetId !== null && savedLevel && (
        <Card size="small" title={t('notes.title')}>
          <LabelNotesPanel datasetId={datasetId} level={savedLevel} canEdit={role.data?.role !== 'viewer'} />
        </Card>
      )}
      {datasetId !== null && savedLevel && (
        <Card size="small" title={t('history.title')}>
          <LevelHistoryPanel
            datasetId={datasetId}
            levelKey={`subset:${savedLevel.id}`}
            version={savedLevel.version}
            canEdit={role.data?.role !== 'viewer'}
          />
        </Card>
      )}
    </Space>
  );
}

/** The in-analysis annotation's failure in the reader's language (the annotate task's own messages). */
function failureText(f: { key: string; params: Record<string, string | number> }, language: string): string {
  const lang = language === 'zh-CN' ? 'zh-CN' : 'en-US';
  const messages: Record<string, string> = {
    ...COMMON_TASK_MESSAGES[lang],
    ...annotate.definition.messages[lang],
  };
  const text = messages[f.key] ?? f.key;
  return text.replace(/\{(\w+)\}/g, (m, k: string) => String(f.params[k] ?? m));
}
