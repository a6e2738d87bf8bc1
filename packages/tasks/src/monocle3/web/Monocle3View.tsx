import { Alert, Button, Card, Checkbox, Select, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GenesInPseudotime, Monocle3Graph, Monocle3Summary } from '../contract';
import { useTaskHost, type TaskViewProps } from '../../_shared/web/host';
import { useJsonOutput } from '../../_shared/web/jsonOutput';
import { useTaskOutput } from '../../_shared/web/useTaskOutput';
import { heatmapOption, linesOption, trajectoryOption } from '../../_shared/figures/trajectory';
import { heatmapHeight, ResultTable, TrajectoryCard, useRerun } from '../../_shared/web/trajectory/parts';

type ColourBy = 'pseudotime' | 'celltype' | 'partition';

/**
 * Monocle 3 result (issue 23, docs/methods/monocle3.md): the principal graph drawn over the cells' embedding
 * (colour by pseudotime, cell type or partition), root nodes picked on the graph and a re-order
 * run, the gene-module table, the module × cell-type heat map and genes along pseudotime.
 */
export function Monocle3View(props: TaskViewProps) {
  const { datasetId, task, outputs } = props;
  const { Chart } = useTaskHost().components;
  const { t } = useTranslation('tasks');
  const summary = outputs.summary as Monocle3Summary;
  const graph = useJsonOutput<Monocle3Graph>(props, 'graph.json');
  const gip = useJsonOutput<GenesInPseudotime>(props, 'genes_in_pseudotime.json');
  const modules = useTaskOutput(props, { table: 'gene_modules', limit: 2000 });
  const moduleCt = useTaskOutput(props, { table: 'module_celltype', limit: 500 });
  const rerun = useRerun(datasetId, 'monocle3', t('monocle3.view.m3.reorderSent'));
  const [colourBy, setColourBy] = useState<ColourBy>('pseudotime');
  const [labels, setLabels] = useState(false);
  const [roots, setRoots] = useState<string[]>(summary.roots);
  const [genes, setGenes] = useState<string[] | null>(null);

  const option = useMemo(() => {
    if (!graph || graph instanceof Error) return null;
    const c = graph.cells;
    return trajectoryOption(
      colourBy === 'pseudotime'
        ? { x: c.x, y: c.y, values: c.pseudotime }
        : { x: c.x, y: c.y, labels: colourBy === 'celltype' ? c.celltype : c.partition },
      { nodes: graph.nodes, edges: graph.edges, highlight: roots, showNodeLabels: labels },
      t('monocle3.view.pseudotime'),
    );
  }, [graph, colourBy, roots, labels, t]);

  const shownGenes =
    genes ?? (gip && !(gip instanceof Error) ? gip.genes.slice(0, 5).map((g) => g.gene) : []);
  const gipOption = useMemo(() => {
    if (!gip || gip instanceof Error || !gip.genes.length) return null;
    return linesOption(
      gip.binCenters,
      gip.genes.filter((g) => shownGenes.includes(g.gene)).map((g) => ({ name: g.gene, values: g.means })),
      t('monocle3.view.pseudotime'),
      t('monocle3.view.m3.expression'),
    );
  }, [gip, shownGenes, t]);

  const heat = useMemo(() => {
    const d = moduleCt.data;
    if (!d || !d.rows.length) return null;
    return heatmapOption(
      d.rows.map((r) => String(r[0])),
      d.columns.slice(1),
      d.rows.map((r) => r.slice(1).map(Number)),
      t('monocle3.view.m3.cellType'),
    );
  }, [moduleCt.data, t]);

  const reorder = () => {
    const params: Record<string, unknown> = { ...task.params, rootNodes: roots };
    delete params.root;
    rerun.run(params);
  };

  if (graph instanceof Error)
    return <Alert type="error" message={t('monocle3.view.failed', { message: graph.message })} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="monocle3-view">
      <Typography.Paragraph data-testid="monocle3-summary">
        {t('monocle3.view.m3.summary', {
          cells: summary.nCells,
          embedding: t(`monocle3.view.m3.embedding.${summary.embedding}`),
          partitions: summary.nPartitions,
          nodes: summary.nNodes,
          roots: summary.roots.join(', '),
          significant: summary.nGenesSignificant,
          tested: summary.nGenesTested,
          q: summary.qValue,
          modules: summary.nModules,
        })}
      </Typography.Paragraph>
      <TrajectoryCard<ColourBy>
        prefix="monocle3"
        title={t('monocle3.view.m3.trajectory')}
        colourLabel={t('monocle3.view.m3.colourBy')}
        colourBy={colourBy}
        colours={['pseudotime', 'celltype', 'partition']}
        colourName={(v) => t(`monocle3.view.m3.colour.${v}`)}
        onColourBy={setColourBy}
        controls={
          <Checkbox checked={labels} onChange={(e) => setLabels(e.target.checked)}>
            {t('monocle3.view.m3.showLabels')}
          </Checkbox>
        }
        option={option}
        footer={
          <Typography.Paragraph type="secondary">{t('monocle3.view.m3.rootsHint')}</Typography.Paragraph>
        }
      >
        <span>{t('monocle3.view.m3.roots')}</span>
        <Select
          mode="multiple"
          value={roots}
          onChange={setRoots}
          style={{ minWidth: 240 }}
          data-testid="monocle3-roots"
          options={(graph?.nodes ?? []).map((n) => ({ value: n.id, label: n.id }))}
        />
        <Button
          type="primary"
          disabled={!roots.length}
          loading={rerun.pending}
          onClick={reorder}
          data-testid="monocle3-reorder"
        >
          {t('monocle3.view.m3.reorder')}
        </Button>
      </TrajectoryCard>
      <Card size="small" title={t('monocle3.view.m3.modules', { q: summary.qValue })}>
        {modules.data && modules.data.rows.length ? (
          <ResultTable table={modules.data} testId="monocle3-modules" maxColumns={8} />
        ) : (
          <Typography.Text type="secondary">
            {modules.isLoading ? t('monocle3.view.loading') : t('monocle3.view.m3.noGenes')}
          </Typography.Text>
        )}
        {heat && (
          <>
            <Typography.Title level={5}>{t('monocle3.view.m3.moduleHeatmap')}</Typography.Title>
            <Chart
              option={heat}
              height={heatmapHeight(moduleCt.data?.rows.length ?? 0, 200, 40, 24)}
              fileName="monocle3-modules"
              testId="monocle3-module-heatmap"
            />
          </>
        )}
      </Card>
      {gipOption && gip && !(gip instanceof Error) && (
        <Card size="small" title={t('monocle3.view.m3.genesInPseudotime')}>
          <span style={{ marginRight: 8 }}>{t('monocle3.view.m3.genes')}</span>
          <Select
            mode="multiple"
            value={shownGenes}
            onChange={setGenes}
            style={{ minWidth: 300 }}
            options={gip.genes.map((g) => ({ value: g.gene, label: g.gene }))}
          />
          <Chart
            option={gipOption}
            height={320}
            fileName="monocle3-genes-in-pseudotime"
            testId="monocle3-genes"
          />
        </Card>
      )}
    </Space>
  );
}
