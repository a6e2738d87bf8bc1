import { Alert, Button, Card, Checkbox, Select, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  Monocle2BeamHeatmap,
  Monocle2Heatmap,
  Monocle2Summary,
  Monocle2TopGenes,
  Monocle2Trajectory,
} from '../contract';
import { useTaskHost, type TaskViewProps } from '../../_shared/web/host';
import { useJsonOutput } from '../../_shared/web/jsonOutput';
import { useTaskOutput } from '../../_shared/web/useTaskOutput';
import {
  clusteredHeatmapOption,
  genePseudotimeOption,
  trajectoryOption,
} from '../../_shared/figures/trajectory';
import { heatmapHeight, ResultTable, TrajectoryCard, useRerun } from '../../_shared/web/trajectory/parts';

type ColourBy = 'state' | 'pseudotime' | 'cluster' | 'sample';

/**
 * Monocle 2 result (issue 23, docs/methods/monocle2.md plots 1 and 2): cells on the two DDRTree components with
 * the tree, coloured by State / pseudotime / cluster / sample, branch points marked; re-order from
 * another root State or reversed; top genes along pseudotime with their fitted curves; the
 * smoothed heat map of the top genes and the pseudotime-gene table.
 */
export function Monocle2View(props: TaskViewProps) {
  const { datasetId, task, outputs } = props;
  const { Chart } = useTaskHost().components;
  const { t } = useTranslation('tasks');
  const summary = outputs.summary as Monocle2Summary;
  const traj = useJsonOutput<Monocle2Trajectory>(props, 'trajectory.json');
  const heat = useJsonOutput<Monocle2Heatmap>(props, 'heatmap.json');
  const top = useJsonOutput<Monocle2TopGenes>(props, 'top_genes.json');
  const genes = useTaskOutput(props, { table: 'pseudotime_genes', limit: 500 });
  const beamData = useJsonOutput<Monocle2BeamHeatmap | null>(props, summary.beam ? 'beam_heatmap.json' : '');
  const rerun = useRerun(datasetId, 'monocle2', t('monocle2.view.m2.reorderSent'));
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
      t('monocle2.view.pseudotime'),
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
      { x: t('monocle2.view.pseudotime'), y: t('monocle2.view.m2.expression') },
    );
  }, [top, traj, geneName, t]);

  const heatOption = useMemo(() => {
    if (!heat || heat instanceof Error || !heat.genes.length) return null;
    return clusteredHeatmapOption(
      heat,
      heat.pseudotime.map((p) => p.toFixed(1)),
      t('monocle2.view.pseudotime'),
    );
  }, [heat, t]);

  const beamHeat = useMemo(() => {
    if (!beamData || beamData instanceof Error || !beamData.genes.length) return null;
    const cols = [
      ...Array.from(
        { length: 100 },
        (_, i) => `${beamData.branches[0]} ${(100 - (100 * i) / 99).toFixed(0)}`,
      ),
      ...Array.from({ length: 100 }, (_, i) => `${beamData.branches[1]} ${((100 * i) / 99).toFixed(0)}`),
    ];
    return clusteredHeatmapOption(beamData, cols, t('monocle2.view.pseudotime'));
  }, [beamData, t]);

  const runBeam = () => rerun.run({ ...task.params, beamBranch: branch });

  const reorder = () => {
    const params: Record<string, unknown> = { ...task.params, rootState, reverse };
    delete params.root;
    rerun.run(params);
  };

  if (traj instanceof Error)
    return <Alert type="error" message={t('monocle2.view.failed', { message: traj.message })} />;
  const states = traj ? [...new Set(traj.cells.state)].sort((a, b) => Number(a) - Number(b)) : [];
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="monocle2-view">
      <Typography.Paragraph data-testid="monocle2-summary">
        {t('monocle2.view.m2.summary', {
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
      <TrajectoryCard<ColourBy>
        prefix="monocle2"
        title={t('monocle2.view.m2.trajectory')}
        colourLabel={t('monocle2.view.m2.colourBy')}
        colourBy={colourBy}
        colours={['state', 'pseudotime', 'cluster', 'sample']}
        colourName={(v) => t(`monocle2.view.m2.colour.${v}`)}
        onColourBy={setColourBy}
        option={option}
      >
        <span>{t('monocle2.view.m2.rootState')}</span>
        <Select
          value={rootState}
          onChange={setRootState}
          style={{ width: 100 }}
          data-testid="monocle2-root-state"
          options={states.map((s) => ({ value: s, label: s }))}
        />
        <Checkbox checked={reverse} onChange={(e) => setReverse(e.target.checked)}>
          {t('monocle2.view.m2.reverse')}
        </Checkbox>
        <Button type="primary" loading={rerun.pending} onClick={reorder} data-testid="monocle2-reorder">
          {t('monocle2.view.m2.reorder')}
        </Button>
      </TrajectoryCard>
      {top && !(top instanceof Error) && (
        <Card size="small" title={t('monocle2.view.m2.topGenes')}>
          <span style={{ marginRight: 8 }}>{t('monocle2.view.m2.gene')}</span>
          <Select
            value={geneName}
            onChange={setGene}
            style={{ width: 200 }}
            options={top.genes.map((g) => ({ value: g.gene, label: g.gene }))}
          />
          {geneOption && (
            <Chart
              option={geneOption}
              height={320}
              fileName={`monocle2-${geneName}`}
              testId="monocle2-gene"
            />
          )}
        </Card>
      )}
      {heatOption && (
        <Card size="small" title={t('monocle2.view.m2.heatmap')}>
          <Chart
            option={heatOption}
            height={heatmapHeight(heat && !(heat instanceof Error) ? heat.genes.length : 0, 260, 60, 16)}
            fileName="monocle2-heatmap"
            testId="monocle2-heatmap"
          />
        </Card>
      )}
      <Card size="small" title={t('monocle2.view.m2.beam')}>
        <Space wrap>
          <span>{t('monocle2.view.m2.branchPoint')}</span>
          <Select
            value={branch}
            onChange={setBranch}
            style={{ width: 120 }}
            data-testid="monocle2-branch"
            options={summary.branchPoints.map((b) => ({ value: b, label: b }))}
          />
          <Button disabled={!branch} loading={rerun.pending} onClick={runBeam} data-testid="monocle2-beam">
            {t('monocle2.view.m2.runBeam')}
          </Button>
        </Space>
        {summary.beam && (
          <Typography.Paragraph data-testid="monocle2-beam-summary" style={{ marginTop: 8 }}>
            {t('monocle2.view.m2.beamSummary', {
              point: summary.beam.branchPoint,
              branches: summary.beam.branches.join(' / '),
              cells: summary.beam.nCells,
              significant: summary.beam.nSignificant,
            })}
          </Typography.Paragraph>
        )}
        {beamHeat && (
          <Chart
            option={beamHeat}
            height={heatmapHeight(
              beamData && !(beamData instanceof Error) ? beamData.genes.length : 0,
              260,
              60,
              16,
            )}
            fileName="monocle2-beam-heatmap"
            testId="monocle2-beam-heatmap"
          />
        )}
      </Card>
      <Card size="small" title={t('monocle2.view.m2.pseudotimeGenes')}>
        {genes.data && <ResultTable table={genes.data} testId="monocle2-genes" />}
      </Card>
    </Space>
  );
}
