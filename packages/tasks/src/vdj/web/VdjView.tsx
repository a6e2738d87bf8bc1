import { Button, Card, Col, Descriptions, Row, Select, Space, Table, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VdjSummary } from '../contract';
import { decodeCodes } from '@cellcloud/formats/artifacts-decode';
import { palette } from '@cellcloud/formats/palettes';
import { useTaskHost, type TaskColouring, type TaskViewProps } from '../../_shared/web/host';
import { useTaskOutput } from '../../_shared/web/useTaskOutput';

type Row = (string | number | boolean | null)[];
const CLASSES = ['Single', 'Medium', 'Large', 'None'] as const;
const CLASS_COLOURS: Record<string, string> = {
  Single: '#91caff',
  Medium: '#1677ff',
  Large: '#002c8c',
  None: '#d9d9d9',
};

/** Rows of a task table as records by column name. */
function records(
  t: { columns: string[]; rows: Row[] } | undefined,
): Record<string, string | number | null>[] {
  if (!t) return [];
  const cell = (v: Row[number] | undefined) => (typeof v === 'boolean' ? String(v) : (v ?? null));
  return t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c, cell(r[i])])));
}

/**
 * Result of an immune V(D)J run (docs/methods/vdj.md): matching and chain summary, the top clonotypes on
 * the embedding, expansion classes per sample and per group, diversity, top clonotypes, V gene
 * usage and the V–J pairing heat map; every table exports as CSV, every chart as PNG/SVG/TIFF.
 */
export function VdjView(props: TaskViewProps) {
  const { datasetId, task, outputs, client, manifest } = props;
  const { t } = useTranslation('tasks');
  const { api, components, download } = useTaskHost();
  const { Chart, Embedding } = components;
  const s = outputs.summary as VdjSummary;
  const classBySample = records(useTaskOutput(props, { table: 'class_by_sample', limit: 10_000 }).data);
  const classByGroup = records(useTaskOutput(props, { table: 'class_by_group', limit: 10_000 }).data);
  const diversity = useTaskOutput(props, { table: 'diversity', limit: 10_000 }).data;
  const top = useTaskOutput(props, { table: 'top_clonotypes', limit: 10_000 }).data;
  const usage = records(useTaskOutput(props, { table: 'gene_usage', limit: 10_000 }).data);
  const vj = records(useTaskOutput(props, { table: 'vj_pairs', limit: 10_000 }).data);
  const [chain, setChain] = useState(s.chains[1]);

  const embName = manifest.embeddings.find((e) => e.name === 'umap')?.name ?? manifest.embeddings[0]?.name;
  const [embedding, setEmbedding] = useState<{ x: Float32Array; y: Float32Array } | null>(null);
  const [clones, setClones] = useState<{ labels: string[]; codes: Uint32Array } | null>(null);
  useEffect(() => {
    if (!embName) return;
    let live = true;
    void client.embedding(embName).then((e) => live && setEmbedding(e));
    return () => {
      live = false;
    };
  }, [client, embName]);
  useEffect(() => {
    const entry = outputs.outputs.obs.find((o) => o.key === 'vdj_clonotype');
    if (!entry || entry.kind !== 'categorical') return;
    let live = true;
    void api.file(datasetId, task.id, entry.file).then(
      (b) =>
        live &&
        setClones({
          labels: entry.labels,
          codes: Uint32Array.from(decodeCodes(new Uint8Array(b), entry.dtype)),
        }),
    );
    return () => {
      live = false;
    };
  }, [api, datasetId, task.id, outputs]);

  const cloneColouring = useMemo((): {
    colouring: TaskColouring;
    legend: { label: string; colour: string }[];
  } | null => {
    if (!clones) return null;
    const pal = [...palette('Default')];
    let k = 0;
    const colours = clones.labels.map((l) =>
      l === 'None' ? '#e8e8e8' : l === 'Other' ? '#bfbfbf' : pal[k++ % pal.length]!,
    );
    return {
      colouring: { kind: 'categorical', codes: clones.codes, colours },
      legend: clones.labels.map((label, i) => ({ label, colour: colours[i]! })),
    };
  }, [clones]);

  const stacked = (
    rows: Record<string, string | number | null>[],
    xKey: string,
    classKey: string,
    valueKey: string,
    classes: readonly string[],
  ) => {
    const xs = [...new Set(rows.map((r) => String(r[xKey])))];
    return {
      tooltip: { trigger: 'axis' as const },
      legend: { data: classes.map((c) => t(`vdj.classes.${c}`)) },
      grid: { left: 50, right: 20, bottom: 60, top: 40 },
      xAxis: { type: 'category' as const, data: xs, axisLabel: { rotate: xs.length > 6 ? 45 : 0 } },
      yAxis: {
        type: 'value' as const,
        max: 1,
        axisLabel: { formatter: (v: number) => `${Math.round(v * 100)}%` },
      },
      series: classes.map((c) => ({
        name: t(`vdj.classes.${c}`),
        type: 'bar' as const,
        stack: 'all',
        itemStyle: { color: CLASS_COLOURS[c] },
        data: xs.map((x) =>
          Number(rows.find((r) => String(r[xKey]) === x && r[classKey] === c)?.[valueKey] ?? 0),
        ),
      })),
    };
  };

  const vGenes = useMemo(() => {
    const counts = new Map<string, number>();
    for (const r of usage)
      if (r.chain === chain && r.segment === 'V')
        counts.set(String(r.gene), (counts.get(String(r.gene)) ?? 0) + Number(r.cells));
    return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20);
  }, [usage, chain]);

  const heat = useMemo(() => {
    const rows = vj.filter((r) => r.chain === chain);
    const sum = (key: 'v_gene' | 'j_gene') => {
      const m = new Map<string, number>();
      for (const r of rows) m.set(String(r[key]), (m.get(String(r[key])) ?? 0) + Number(r.cells));
      return [...m.entries()].sort((a, b) => b[1] - a[1]).map(([g]) => g);
    };
    const vs = sum('v_gene').slice(0, 20);
    const js = sum('j_gene').slice(0, 15);
    const cell = new Map<string, number>();
    for (const r of rows)
      cell.set(
        `${r.v_gene}\u0000${r.j_gene}`,
        (cell.get(`${r.v_gene}\u0000${r.j_gene}`) ?? 0) + Number(r.cells),
      );
    const data = vs.flatMap((v, i) => js.map((j, k) => [k, i, cell.get(`${v}\u0000${j}`) ?? 0]));
    const max = Math.max(1, ...data.map((d) => d[2]!));
    return {
      tooltip: { position: 'top' as const },
      grid: { left: 120, right: 30, bottom: 110, top: 20 },
      xAxis: { type: 'category' as const, data: js, axisLabel: { rotate: 60 } },
      yAxis: { type: 'category' as const, data: vs },
      visualMap: {
        min: 0,
        max,
        calculable: true,
        orient: 'horizontal' as const,
        left: 'center',
        bottom: 0,
        inRange: { color: ['#f0f5ff', '#1d39c4'] },
      },
      series: [{ type: 'heatmap' as const, data }],
    };
  }, [vj, chain]);

  const csv = (name: string) =>
    void api.exportTableCsv(datasetId, task.id, name).then((b) => download(b, `vdj-${name}.csv`));
  const tableOf = (data: { columns: string[]; rows: Row[] } | undefined, testId: string) => (
    <Table
      size="small"
      data-testid={testId}
      rowKey={(r) => r.map(String).join('|')}
      dataSource={data?.rows ?? []}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      scroll={{ x: true }}
      columns={(data?.columns ?? []).map((c, i) => ({
        title: c,
        key: c,
        render: (_: unknown, r: Row) =>
          typeof r[i] === 'number' && !Number.isInteger(r[i]) ? (r[i] as number).toFixed(3) : r[i],
      }))}
    />
  );

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="vdj-view">
      <Descriptions size="small" bordered column={{ xs: 1, md: 3 }} data-testid="vdj-summary">
        <Descriptions.Item
          label={t('vdj.view.receptor')}
        >{`${s.receptor} (${s.chains.join(' / ')})`}</Descriptions.Item>
        <Descriptions.Item label={t('vdj.view.matched')}>
          {t('vdj.view.matchedValue', { matched: s.cellsMatched, total: s.cellsWithContigs })}
        </Descriptions.Item>
        <Descriptions.Item label={t('vdj.view.kept')}>
          {t('vdj.view.keptValue', { kept: s.cellsKept, paired: s.pairedCells, ambiguous: s.ambiguousCells })}
        </Descriptions.Item>
        <Descriptions.Item label={t('vdj.view.clonotypes')}>{s.clonotypes}</Descriptions.Item>
        <Descriptions.Item label={t('vdj.view.definition')}>
          {t(`vdj.options.cloneDefine.${s.cloneDefine}`)}
        </Descriptions.Item>
        <Descriptions.Item label={t('vdj.view.classes')}>
          {CLASSES.slice(0, 3)
            .map((c) => `${t(`vdj.classes.${c}`)} ${s.classes[c] ?? 0}`)
            .join(' · ')}
        </Descriptions.Item>
      </Descriptions>
      <Row gutter={12}>
        <Col xs={24} lg={12}>
          <Card
            size="small"
            title={t('vdj.view.topOnEmbedding', { n: s.top.length })}
            data-testid="vdj-embedding"
          >
            {embedding && cloneColouring ? (
              <>
                <Embedding
                  x={embedding.x}
                  y={embedding.y}
                  colouring={cloneColouring.colouring}
                  mouseMode="panZoom"
                  height={320}
                />
                <Space wrap size={4} style={{ marginTop: 8 }}>
                  {cloneColouring.legend.map((l) => (
                    <Typography.Text key={l.label} style={{ fontSize: 12 }}>
                      <span
                        style={{
                          display: 'inline-block',
                          width: 10,
                          height: 10,
                          borderRadius: 5,
                          background: l.colour,
                          marginRight: 4,
                        }}
                      />
                      {l.label === 'None' || l.label === 'Other' ? t(`vdj.classes.${l.label}`) : l.label}
                    </Typography.Text>
                  ))}
                </Space>
              </>
            ) : (
              <Typography.Text type="secondary">{t('view.loading')}</Typography.Text>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('vdj.view.classBySample')} data-testid="vdj-class-plot">
            <Chart
              option={stacked(classBySample, 'Sample', 'Description', 'Frequency', CLASSES.slice(0, 3))}
              fileName="vdj-class-by-sample"
              height={320}
            />
          </Card>
        </Col>
      </Row>
      {classByGroup.length > 0 && (
        <Card
          size="small"
          title={t('vdj.view.classByGroup', { level: s.groupBy })}
          data-testid="vdj-class-by-group"
        >
          <Chart
            option={stacked(classByGroup, 'group', 'class', 'fraction', CLASSES)}
            fileName="vdj-class-by-group"
            height={300}
          />
        </Card>
      )}
      <Row gutter={12}>
        <Col xs={24} lg={12}>
          <Card
            size="small"
            title={t('vdj.view.top')}
            extra={
              <Button size="small" onClick={() => csv('clonotypes')}>
                {t('view.exportCsv')}
              </Button>
            }
          >
            {tableOf(top, 'vdj-top-table')}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card
            size="small"
            title={t('vdj.view.diversity')}
            extra={
              <Button size="small" onClick={() => csv('diversity')}>
                {t('view.exportCsv')}
              </Button>
            }
          >
            {tableOf(diversity, 'vdj-diversity-table')}
          </Card>
        </Col>
      </Row>
      <Space>
        <span>{t('vdj.view.chain')}</span>
        <Select
          style={{ width: 120 }}
          value={chain}
          onChange={setChain}
          options={s.chains.map((c) => ({ value: c, label: c }))}
        />
        <Button onClick={() => csv('cells')} data-testid="vdj-export-cells">
          {t('vdj.view.exportCells')}
        </Button>
      </Space>
      <Row gutter={12}>
        <Col xs={24} lg={10}>
          <Card size="small" title={t('vdj.view.vUsage', { chain })}>
            <Chart
              fileName={`vdj-v-usage-${chain}`}
              height={420}
              option={{
                tooltip: { trigger: 'axis' },
                grid: { left: 120, right: 20, top: 10, bottom: 30 },
                xAxis: { type: 'value' },
                yAxis: { type: 'category', data: vGenes.map(([g]) => g).reverse() },
                series: [
                  { type: 'bar', data: vGenes.map(([, n]) => n).reverse(), itemStyle: { color: '#1677ff' } },
                ],
              }}
            />
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card size="small" title={t('vdj.view.vjPairs', { chain })}>
            <Chart option={heat} fileName={`vdj-vj-${chain}`} height={420} />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
