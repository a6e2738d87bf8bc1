import { Alert, Button, Card, Checkbox, Select, Space, Table, Typography, message } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  Monocle2BeamHeatmap,
  Monocle2Heatmap,
  Monocle2Summary,
  Monocle2TopGenes,
  Monocle2Trajectory,
} from '@cellcloud/contracts/tasks/monocle2';
import { useCreateTask, useTaskTable } from '../../../../api/tasks';
import { EChart } from '../../charts/EChart';
import type { WebTaskViewProps } from '../types';
import { genePseudotimeOption, heatmapOption, trajectoryOption } from './charts';
import { useTaskJson } from './useTaskJson';

type ColourBy = 'state' | 'pseudotime' | 'cluster' | 'sample';

/**
 * Monocle 2 result (issue 23, METHODS §6.1 plots 1 and 2): cells on the two DDRTree components with
 * the tree, coloured by State / pseudotime / cluster / sample, branch points marked; re-order from
 * another root State or reversed; top genes along pseudotime with their fitted curves; the
 * smoothed heat map of the top genes and the pseudotime-gene table.
 */
export function Monocle2View({ datasetId, task, outputs }: WebTaskViewProps) {
  const { t } = useTranslation('trajectory');
  const summary = outputs.summary as Monocle2Summary;
  const traj = useTaskJson<Monocle2Trajectory>(datasetId, task.id, 'data/trajectory.json');
  const heat = useTaskJson<Monocle2Heatmap>(datasetId, task.id, 'data/heatmap.json');
  const top = useTaskJson<Monocle2TopGenes>(datasetId, task.id, 'data/top_genes.json');
  const genes = useTaskTable(datasetId, task.id, 'pseudotime_genes', 500);
  const beamData = useTaskJson<Monocle2BeamHeatmap | null>(
    datasetId,
    task.id,
    summary.beam ? 'data/beam_heatmap.json' : '',
  );
  const create = useCreateTask(datasetId);
  const [colourBy, setColourBy] = useState<ColourBy>('state');
  const [rootState, setRootState] = useState(summary.rootState);
  const [reverse, setReverse] = useState(false);
  const [gene, setGene] = useState<string | null>(null);
  const [branch, setBranch] = useState<string | undefined>(
    summary.beam?.branchPoint ?? summary.branchPoints[0],
  );

  const option = useMemo(() => {
    if (!traj || traj instanceof Error) return null;
    const c = traj.cells;
    const cells =
      colourBy === 'pseudotime'
        ? { x: c.x, y: c.y, values: c.pseudotime }
        : {
            x: c.x,
            y: c.y,
            labels: colourBy === 'state' ? c.state : colourBy === 'cluster' ? c.cluster : c.sample,
          };
    return trajectoryOption(
      cells,
      { nodes: traj.nodes, edges: traj.edges, highlight: [traj.rootNode], secondary: traj.branchPoints },
      t('pseudotime'),
    );
  }, [traj, colourBy, t]);

  const geneName = gene ?? (top && !(top instanceof Error) ? (top.genes[0]?.gene ?? null) : null);
  const geneOption = useMemo(() => {
    if (!top || top instanceof Error || !traj || traj instanceof Error || !geneName) return null;
    const g = top.genes.find((x) => x.gene === geneName);
    if (!g) return null;
    return genePseudotimeOption(
      traj.cells.pseudotime,
      g.expression,
      top.curvePseudotime,
      g.curve,
      traj.cells.state,
      { x: t('pseudotime'), y: t('m2.expression') },
    );
  }, [top, traj, geneName, t]);

  const heatOption = useMemo(() => {
    if (!heat || heat instanceof Error || !heat.genes.length) return null;
    const order = heat.genes.map((_, i) => i).sort((a, b) => heat.clusters[a]! - heat.clusters[b]! || a - b);
    return heatmapOption(
      order.map((i) => `${heat.genes[i]} (${heat.clusters[i]})`),
      heat.pseudotime.map((p) => p.toFixed(1)),
      order.map((i) => heat.values[i]!),
      t('pseudotime'),
    );
  }, [heat, t]);

  const beamHeat = useMemo(() => {
    if (!beamData || beamData instanceof Error || !beamData.genes.length) return null;
    const order = beamData.genes
      .map((_, i) => i)
      .sort((a, b) => beamData.clusters[a]! - beamData.clusters[b]! || a - b);
    const cols = [
      ...Array.from(
        { length: 100 },
        (_, i) => `${beamData.branches[0]} ${(100 - (100 * i) / 99).toFixed(0)}`,
      ),
      ...Array.from({ length: 100 }, (_, i) => `${beamData.branches[1]} ${((100 * i) / 99).toFixed(0)}`),
    ];
    return heatmapOption(
      order.map((i) => `${beamData.genes[i]} (${beamData.clusters[i]})`),
      cols,
      order.map((i) => beamData.values[i]!),
      t('pseudotime'),
    );
  }, [beamData, t]);

  const runBeam = () => {
    const params: Record<string, unknown> = { ...task.params, beamBranch: branch };
    create.mutate(
      { task: 'monocle2', params },
      {
        onSuccess: () => void message.success(t('m2.reorderSent')),
        onError: (e) => void message.error(e.message),
      },
    );
  };

  const reorder = () => {
    const params: Record<string, unknown> = { ...task.params, rootState, reverse };
    delete params.root;
    create.mutate(
      { task: 'monocle2', params },
      {
        onSuccess: () => void message.success(t('m2.reorderSent')),
        onError: (e) => void message.error(e.message),
      },
    );
  };

  if (traj instanceof Error) return <Alert type="error" message={t('failed', { message: traj.message })} />;
  const states = traj ? [...new Set(traj.cells.state)].sort((a, b) => Number(a) - Number(b)) : [];
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="monocle2-view">
      <Typography.Paragraph data-testid="monocle2-summary">
        {t('m2.summary', {
          cells: summary.nCells,
          selected: summary.nCellsSelected,
          genes: summary.nOrderingGenes,
          centres: summary.nCenters,
          states: summary.nStates,
          branches: summary.branchPoints.join(', ') || '—',
          root: summary.rootState,
          significant: summary.nGenesSignificant,
          tested: summary.nGenesTested,
        })}
      </Typography.Paragraph>
      <Card size="small" title={t('m2.trajectory')}>
        <Space wrap style={{ marginBottom: 8 }}>
          <span>{t('m2.colourBy')}</span>
          <Select<ColourBy>
            value={colourBy}
            onChange={setColourBy}
            style={{ width: 160 }}
            data-testid="monocle2-colour"
            options={(['state', 'pseudotime', 'cluster', 'sample'] as const).map((v) => ({
              value: v,
              label: t(`m2.colour.${v}`),
            }))}
          />
        </Space>
        {option ? (
          <EChart option={option} height={480} fileName="monocle2-trajectory" testId="monocle2-trajectory" />
        ) : (
          <Typography.Text type="secondary">{t('loading')}</Typography.Text>
        )}
        <Space wrap style={{ marginTop: 8 }}>
          <span>{t('m2.rootState')}</span>
          <Select
            value={rootState}
            onChange={setRootState}
            style={{ width: 100 }}
            data-testid="monocle2-root-state"
            options={states.map((s) => ({ value: s, label: s }))}
          />
          <Checkbox checked={reverse} onChange={(e) => setReverse(e.target.checked)}>
            {t('m2.reverse')}
          </Checkbox>
          <Button type="primary" loading={create.isPending} onClick={reorder} data-testid="monocle2-reorder">
            {t('m2.reorder')}
          </Button>
        </Space>
      </Card>
      {top && !(top instanceof Error) && (
        <Card size="small" title={t('m2.topGenes')}>
          <span style={{ marginRight: 8 }}>{t('m2.gene')}</span>
          <Select
            value={geneName}
            onChange={setGene}
            style={{ width: 200 }}
            options={top.genes.map((g) => ({ value: g.gene, label: g.gene }))}
          />
          {geneOption && (
            <EChart
              option={geneOption}
              height={320}
              fileName={`monocle2-${geneName}`}
              testId="monocle2-gene"
            />
          )}
        </Card>
      )}
      {heatOption && (
        <Card size="small" title={t('m2.heatmap')}>
          <EChart
            option={heatOption}
            height={Math.max(260, 60 + 16 * (heat && !(heat instanceof Error) ? heat.genes.length : 0))}
            fileName="monocle2-heatmap"
            testId="monocle2-heatmap"
          />
        </Card>
      )}
      <Card size="small" title={t('m2.beam')}>
        <Space wrap>
          <span>{t('m2.branchPoint')}</span>
          <Select
            value={branch}
            onChange={setBranch}
            style={{ width: 120 }}
            data-testid="monocle2-branch"
            options={summary.branchPoints.map((b) => ({ value: b, label: b }))}
          />
          <Button disabled={!branch} loading={create.isPending} onClick={runBeam} data-testid="monocle2-beam">
            {t('m2.runBeam')}
          </Button>
        </Space>
        {summary.beam && (
          <Typography.Paragraph data-testid="monocle2-beam-summary" style={{ marginTop: 8 }}>
            {t('m2.beamSummary', {
              point: summary.beam.branchPoint,
              branches: summary.beam.branches.join(' / '),
              cells: summary.beam.nCells,
              significant: summary.beam.nSignificant,
            })}
          </Typography.Paragraph>
        )}
        {beamHeat && (
          <EChart
            option={beamHeat}
            height={Math.max(
              260,
              60 + 16 * (beamData && !(beamData instanceof Error) ? beamData.genes.length : 0),
            )}
            fileName="monocle2-beam-heatmap"
            testId="monocle2-beam-heatmap"
          />
        )}
      </Card>
      <Card size="small" title={t('m2.pseudotimeGenes')}>
        {genes.data && (
          <Table
            size="small"
            rowKey={(_, i) => String(i)}
            data-testid="monocle2-genes"
            dataSource={genes.data.rows.map((r) =>
              Object.fromEntries(genes.data!.columns.map((c, i) => [c, r[i]])),
            )}
            columns={genes.data.columns.map((c) => ({
              title: c,
              dataIndex: c,
              key: c,
              render: (v: unknown) =>
                typeof v === 'number' && !Number.isInteger(v) ? v.toPrecision(4) : String(v ?? ''),
            }))}
            pagination={{ pageSize: 10 }}
          />
        )}
      </Card>
    </Space>
  );
}
