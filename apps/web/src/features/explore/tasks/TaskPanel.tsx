import { Alert, Button, Card, Empty, Popconfirm, Progress, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { TaskView } from '@cellcloud/contracts/tasks/api';
import type { TaskDefinition } from '@cellcloud/contracts/tasks/define';
import { ApiError } from '../../../api/client';
import {
  exportTaskTableCsv,
  fileToBase64,
  useCreateTask,
  useDeleteTask,
  useTaskOutputs,
  useTasks,
} from '../../../api/tasks';
import type { TabProps } from '../tabs/registry';
import { downloadBlob } from '../viewer/exportImage';
import { TaskHostProvider } from '@cellcloud/tasks/web';
import { WEB_TASKS } from './registry';
import { TASK_HOST } from './taskHost';
import { levelOptions } from './levelPickers';
import { TaskForm } from './TaskForm';
import { useTaskLaunch } from './taskLaunch';
import { i18nPrefix, paramTexts } from './paramText';
import type { WebTaskViewProps } from './types';
import { CellSampleNotice } from './cellSampleNotice';
import { useCellSample } from './useCellSample';

const groupText = (spec: unknown) =>
  Array.isArray(spec) ? spec.map((c: { values?: string[] }) => (c.values ?? []).join(', ')).join(' & ') : '';

/** Finished runs of the tasks `definition` builds on, as choices for its `source` field. */
function sourceOptions(definition: TaskDefinition, tasks: TaskView[]) {
  const deps = definition.dependsOn ?? [];
  return tasks
    .filter((x) => x.status === 'completed' && deps.includes(x.task))
    .map((x) => ({
      value: x.id,
      label: `${groupText(x.params.group1)} vs ${groupText(x.params.group2)} · ${dayjs(x.createdAt).format('MM-DD HH:mm')}`,
    }));
}

/**
 * Status of a task row (docs/product/states.md): processing (with %), failed, completed. A failed
 * run's reason is shown below its row (FailureRow), where it has the table's whole width.
 */
export function TaskStatus({ task }: { task: TaskView }) {
  const { t } = useTranslation('tasks');
  if (task.status === 'completed')
    return <Tag color="green">{t(task.cached ? 'status.cached' : 'status.completed')}</Tag>;
  if (task.status === 'failed') return <Tag color="red">{t('status.failed')}</Tag>;
  return (
    <Space direction="vertical" size={0} style={{ minWidth: 160 }}>
      <Tag color="blue">{t(task.status === 'submitted' ? 'status.submitted' : 'status.processing')}</Tag>
      <Progress percent={Math.round(task.progress * 100)} size="small" />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('status.refreshLater')}
      </Typography.Text>
    </Space>
  );
}

/** Fallback result view: the task's tables (first rows) with CSV export. */
function GenericTaskView({ datasetId, task, outputs }: WebTaskViewProps) {
  const { t } = useTranslation('tasks');
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {outputs.outputs.tables.map((tb) => (
        <Space key={tb.name}>
          <Typography.Text strong>{tb.name}</Typography.Text>
          <Typography.Text type="secondary">{t('view.rows', { n: tb.rows })}</Typography.Text>
          <Button
            size="small"
            onClick={() =>
              void exportTaskTableCsv(datasetId, task.id, tb.name).then((b) =>
                downloadBlob(b, `${task.task}-${tb.name}.csv`),
              )
            }
          >
            {t('view.exportCsv')}
          </Button>
        </Space>
      ))}
      {outputs.outputs.obs.length > 0 && (
        <Typography.Text type="secondary">
          {t('view.obsAdded', { keys: outputs.outputs.obs.map((o) => o.key).join(', ') })}
        </Typography.Text>
      )}
    </Space>
  );
}

const failedWithReason = (r: TaskView) => r.status === 'failed' && !!r.message;

/** The reason of a failed run, under its history row, wrapped to the table's width. */
function FailureRow({ task }: { task: TaskView }) {
  const { t } = useTranslation('tasks');
  return (
    <Alert
      type="error"
      showIcon
      title={t('history.failedReason')}
      description={
        <span data-testid="task-failure" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {task.message}
        </span>
      }
    />
  );
}

/** A run's parameters, one line (cut with an ellipsis), every one on its own line in the tooltip. */
function ParamsCell({ texts }: { texts: { name: string; label: string; value: string }[] }) {
  const line = texts.map((p) => `${p.label}: ${p.value}`).join('; ');
  return (
    <Typography.Paragraph
      style={{ fontSize: 12, marginBottom: 0, maxWidth: 'min(520px, 60vw)' }}
      ellipsis={{
        rows: 2,
        tooltip: (
          <div data-testid="task-params-tooltip">
            {texts.map((p) => (
              <div key={p.name}>
                {p.label}: {p.value}
              </div>
            ))}
          </div>
        ),
      }}
      data-testid="task-params"
    >
      {line}
    </Typography.Paragraph>
  );
}

function TaskResult(props: Omit<WebTaskViewProps, 'outputs'>) {
  const { t } = useTranslation('tasks');
  const outputs = useTaskOutputs(props.datasetId, props.task.id);
  if (outputs.isLoading) return <Typography.Text type="secondary">{t('view.loading')}</Typography.Text>;
  if (!outputs.data)
    return (
      <Alert
        type="warning"
        message={outputs.error instanceof Error ? outputs.error.message : t('view.missing')}
      />
    );
  return <TaskResultView {...props} outputs={outputs.data} />;
}

/** A finished run's results, below the notice of the cell sample it ran on (if it did). */
function TaskResultView(props: WebTaskViewProps) {
  const sample = useCellSample(props.datasetId, props.task.id, props.outputs);
  const View = WEB_TASKS[props.task.task]?.view ?? GenericTaskView;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {sample && <CellSampleNotice info={sample} subsets={props.subsets} />}
      <TaskHostProvider value={TASK_HOST}>
        <View {...props} />
      </TaskHostProvider>
    </Space>
  );
}

function OneTask({
  definition,
  props,
}: {
  definition: TaskDefinition;
  props: TabProps & { datasetId: string };
}) {
  const { t } = useTranslation('tasks');
  const list = useTasks(props.datasetId);
  const create = useCreateTask(props.datasetId);
  const del = useDeleteTask(props.datasetId);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  // a run form opened from elsewhere in the explorer with chosen params (taskLaunch.tsx)
  const launched = useTaskLaunch()?.request;
  const preset = launched?.task === definition.name ? launched : null;
  const card = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (preset) card.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  }, [preset]);
  const rows = (list.data ?? []).filter((x) => x.task === definition.name);
  const sources = sourceOptions(definition, list.data ?? []);
  const levels = levelOptions(props.manifest, props.subsets);
  const describe = (r: TaskView) =>
    paramTexts(definition, r, {
      t,
      levelName: (k) => levels.find((l) => l.value === k)?.label ?? k,
      sourceName: (id) => sources.find((s) => s.value === id)?.label,
    });
  const newestDone = rows.find((x) => x.status === 'completed');
  const shown = rows.find((x) => x.id === selected && x.status === 'completed') ?? newestDone;
  useEffect(() => {
    if (selected && !rows.some((r) => r.id === selected)) setSelected(null);
  }, [rows, selected]);

  const run = async (params: Record<string, unknown>, files: Record<string, File>) => {
    setError(null);
    const uploads = Object.fromEntries(
      await Promise.all(
        Object.entries(files).map(
          async ([k, f]) => [k, { fileName: f.name, base64: await fileToBase64(f) }] as const,
        ),
      ),
    );
    create.mutate(
      { task: definition.name, params, ...(Object.keys(uploads).length ? { uploads } : {}) },
      {
        onSuccess: (v) => setSelected(v.id),
        onError: (e) => setError(e instanceof ApiError ? e.message : String(e)),
      },
    );
  };

  return (
    <Card
      ref={card}
      size="small"
      title={t(`${i18nPrefix(definition)}.title`)}
      data-testid={`task-panel-${definition.name}`}
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <TaskForm
          definition={definition}
          datasetId={props.datasetId}
          manifest={props.manifest}
          subsets={props.subsets}
          symbols={props.symbols}
          sources={sources}
          busy={create.isPending}
          preset={preset}
          onSubmit={(p, f) => void run(p, f)}
        />
        {error && (
          <Alert
            type="error"
            showIcon
            message={error}
            data-testid="task-error"
            closable
            onClose={() => setError(null)}
          />
        )}
        <Table<TaskView>
          size="small"
          rowKey="id"
          data-testid={`task-history-${definition.name}`}
          dataSource={rows}
          pagination={rows.length > 5 ? { pageSize: 5 } : false}
          locale={{ emptyText: t('history.empty') }}
          rowClassName={(r) => (r.id === shown?.id ? 'ant-table-row-selected' : '')}
          scroll={{ x: true }}
          expandable={{
            showExpandColumn: false,
            rowExpandable: failedWithReason,
            expandedRowKeys: rows.filter(failedWithReason).map((r) => r.id),
            expandedRowRender: (r) => <FailureRow task={r} />,
          }}
          columns={[
            {
              title: t('history.created'),
              dataIndex: 'createdAt',
              render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss'),
            },
            {
              title: t('history.params'),
              dataIndex: 'params',
              render: (_: unknown, r) => <ParamsCell texts={describe(r)} />,
            },
            {
              title: t('history.status'),
              dataIndex: 'status',
              render: (_: unknown, r) => <TaskStatus task={r} />,
            },
            {
              title: '',
              key: 'actions',
              render: (_: unknown, r) => (
                <Space>
                  {r.status === 'completed' && (
                    <Button
                      size="small"
                      type="link"
                      onClick={() => setSelected(r.id)}
                      data-testid="task-show"
                    >
                      {t('history.show')}
                    </Button>
                  )}
                  <Popconfirm title={t('history.deleteConfirm')} onConfirm={() => del.mutate(r.id)}>
                    <Button size="small" type="link" danger>
                      {t('history.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
        {shown && (
          <TaskResult
            datasetId={props.datasetId}
            task={shown}
            client={props.client}
            manifest={props.manifest}
            subsets={props.subsets}
          />
        )}
      </Space>
    </Card>
  );
}

/**
 * The generic task area of an explore tab (issue 11): for every task feeding the tab, a run panel
 * generated from its contract, the history of its runs with status and progress (polled while
 * one is processing) and the result view registered in `registry.ts`.
 */
export function TaskPanel({
  tabKey,
  tasks: defs,
  ...props
}: TabProps & { tabKey: string; tasks: readonly TaskDefinition[] }) {
  const { t } = useTranslation('tasks');
  if (!defs.length) return null;
  if (props.datasetId === null) return <Empty description={t('noServer')} />;
  const datasetId = props.datasetId;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid={`tasks-${tabKey}`}>
      {defs.map((d) => (
        <OneTask key={d.name} definition={d} props={{ ...props, datasetId }} />
      ))}
    </Space>
  );
}
