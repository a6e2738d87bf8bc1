import { Alert, Segmented, Space, Spin, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IthBoxData, IthSummary } from '../contract';
import { violinBoxOption } from '../../_shared/figures/violin-box';
import { useTaskHost, type TaskViewProps } from '../../_shared/web/host';
import { useJsonOutput } from '../../_shared/web/jsonOutput';

const fmt = (v: number) =>
  !Number.isFinite(v) ? '—' : Math.abs(v) >= 1e-3 ? v.toFixed(4) : v.toExponential(2);

/** Result of an `ith` task: ITH score box plots per identity with comparison stars, and the stat table. */
export function IthView(props: TaskViewProps) {
  const { t } = useTranslation('tasks');
  const { Chart } = useTaskHost().components;
  const summary = props.outputs.summary as IthSummary;
  const box = useJsonOutput<IthBoxData>(props, 'box');
  const [shape, setShape] = useState<'box' | 'violin'>('box');
  if (box instanceof Error)
    return <Alert type="error" showIcon title={t('ith.view.loadFailed', { detail: box.message })} />;
  if (!box) return <Spin />;
  const requested = box.pairs.filter((p) => p.requested);
  const brackets = (requested.length ? requested : box.groups.length <= 4 ? box.pairs : []).map((p) => ({
    a: p.a,
    b: p.b,
    signif: p.signif,
  }));
  const groups = box.groups.map((g) => ({ ...g, label: g.type }));
  const yName = t(box.method === 'dist' ? 'ith.view.ith.yDist' : 'ith.view.ith.yIqr');
  return (
    <div data-testid="ith-view">
      <Space wrap style={{ marginBottom: 8 }}>
        <span>
          {t('ith.view.ith.method', {
            method: t(`ith.options.method.${box.method}`),
            cmethod: t(`ith.options.cmethod.${box.cmethod}`),
          })}
        </span>
        <Segmented
          value={shape}
          onChange={(v) => setShape(v as 'box' | 'violin')}
          options={[
            { value: 'box', label: t('ith.view.scores.box') },
            { value: 'violin', label: t('ith.view.scores.violin') },
          ]}
        />
      </Space>
      {summary.skipped.length > 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 8 }}
          title={t('ith.view.ith.skipped', {
            groups: summary.skipped.map((s) => `${s.type} (${s.cells})`).join(', '),
          })}
        />
      )}
      <Chart
        option={violinBoxOption(groups, brackets, yName, { violin: shape === 'violin' })}
        height={420}
        fileName={`ith-${box.method}`}
        testId="ith-chart"
      />
      <Table
        size="small"
        rowKey="type"
        pagination={false}
        dataSource={summary.identities}
        columns={[
          { title: t('ith.view.ith.type'), dataIndex: 'type' },
          { title: t('ith.view.ith.cells'), dataIndex: 'cells' },
          { title: t('ith.view.ith.used'), dataIndex: 'used' },
          { title: t('ith.view.ith.mean'), dataIndex: 'mean', render: fmt },
          { title: t('ith.view.ith.median'), dataIndex: 'median', render: fmt },
          { title: 'IQR', dataIndex: 'iqr', render: fmt },
        ]}
      />
      <Table
        size="small"
        style={{ marginTop: 8 }}
        rowKey={(r) => `${r.a}|${r.b}`}
        pagination={{ pageSize: 10 }}
        dataSource={box.pairs}
        columns={[
          { title: t('ith.view.scores.group1'), dataIndex: 'a' },
          { title: t('ith.view.scores.group2'), dataIndex: 'b' },
          { title: 'p', dataIndex: 'p', render: fmt },
          { title: t('ith.view.scores.pAdj'), dataIndex: 'pAdj', render: fmt },
          { title: t('ith.view.scores.signif'), dataIndex: 'signif' },
        ]}
      />
    </div>
  );
}
