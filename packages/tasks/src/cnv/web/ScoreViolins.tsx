import { Alert, Segmented, Space, Spin, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CnvScoreViolins } from '../contract';
import { useTaskHost } from '../../_shared/web/host';
import { violinBoxOption } from '../../_shared/figures/violin-box';

const fmtP = (p: number) => (!Number.isFinite(p) ? '—' : p >= 1e-3 ? p.toFixed(4) : p.toExponential(2));

/**
 * CNV score violins / boxes by identity (cell type, sample, cluster, subclone; references keep
 * their own label) with the overall test and Wilcoxon brackets (significance stars) for the
 * requested comparisons, or for every pair when there are at most four groups.
 */
export function ScoreViolins({ data }: { data: CnvScoreViolins[] | Error | null }) {
  const { Chart } = useTaskHost().components;
  const { t } = useTranslation('tasks');
  const [score, setScore] = useState<CnvScoreViolins['score']>('CNVscore');
  const [identity, setIdentity] = useState('subclone');
  const [shape, setShape] = useState<'violin' | 'box'>('violin');
  const current = useMemo(() => {
    if (!data || data instanceof Error) return null;
    const s = data.find((d) => d.score === score) ?? data[0]!;
    return s.identities.find((i) => i.identity === identity) ?? s.identities[0]!;
  }, [data, score, identity]);
  if (data instanceof Error)
    return <Alert type="error" showIcon title={t('cnv.view.loadFailed', { detail: data.message })} />;
  if (!data || !current) return <Spin />;
  const identities = data[0]!.identities.map((i) => i.identity);
  const requested = current.pairs.filter((p) => p.requested);
  const brackets = (requested.length ? requested : current.groups.length <= 4 ? current.pairs : []).map(
    (p) => ({ a: p.a, b: p.b, signif: p.signif }),
  );
  const title = current.overall
    ? t('cnv.view.scores.overall', { method: current.overall.method, p: fmtP(current.overall.p) })
    : undefined;
  const option = violinBoxOption(current.groups, brackets, score, { violin: shape === 'violin', title });
  return (
    <div data-testid="cnv-scores">
      <Space wrap style={{ marginBottom: 8 }}>
        <Segmented
          value={score}
          onChange={(v) => setScore(v as CnvScoreViolins['score'])}
          options={['CNVscore', 'CNVscore_SS', 'CNVscore_SD']}
        />
        <Segmented
          data-testid="cnv-scores-identity"
          value={current.identity}
          onChange={(v) => setIdentity(String(v))}
          options={identities.map((i) => ({ value: i, label: t(`cnv.view.scores.identity.${i}`) }))}
        />
        <Segmented
          value={shape}
          onChange={(v) => setShape(v as 'violin' | 'box')}
          options={[
            { value: 'violin', label: t('cnv.view.scores.violin') },
            { value: 'box', label: t('cnv.view.scores.box') },
          ]}
        />
      </Space>
      <Chart
        option={option}
        height={420}
        fileName={`cnv-${score}-${current.identity}`}
        testId="cnv-scores-chart"
      />
      <Table
        size="small"
        rowKey={(r) => `${r.a}|${r.b}`}
        pagination={{ pageSize: 10 }}
        dataSource={current.pairs}
        columns={[
          { title: t('cnv.view.scores.group1'), dataIndex: 'a' },
          { title: t('cnv.view.scores.group2'), dataIndex: 'b' },
          { title: 'p', dataIndex: 'p', render: fmtP },
          { title: t('cnv.view.scores.pAdj'), dataIndex: 'pAdj', render: fmtP },
          { title: t('cnv.view.scores.signif'), dataIndex: 'signif' },
        ]}
      />
    </div>
  );
}
