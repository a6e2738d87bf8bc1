import { Alert, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TaskViewProps } from '../../_shared/web/host';
import { useTaskOutput } from '../../_shared/web/useTaskOutput';
import type { InteractionMeta, InteractionSummary } from '../contract';
import { InteractionView } from './InteractionView';

/** The interaction task's result view: reads interactions.json + means/pvalues (float32) and shows the views. */
export function InteractionTaskView(props: TaskViewProps) {
  const { t } = useTranslation('tasks');
  const fileOf = (name: string) => props.outputs.outputs.files.find((f) => f.name === name)?.file;
  const means = fileOf('means.bin');
  const pvalues = fileOf('pvalues.bin');
  const metaQ = useTaskOutput<{ json: string }, InteractionMeta>(props, { json: 'interactions.json' });
  const meansQ = useTaskOutput(props, means ? { file: means } : null);
  const pvaluesQ = useTaskOutput(props, pvalues ? { file: pvalues } : null);
  const missing = !means || !pvalues ? new Error(`${means ? 'pvalues.bin' : 'means.bin'} missing`) : null;
  const error = missing ?? metaQ.error ?? meansQ.error ?? pvaluesQ.error;
  if (error)
    return (
      <Alert type="error" showIcon message={t('interaction.view.loadFailed', { detail: error.message })} />
    );
  if (!metaQ.data || !meansQ.data || !pvaluesQ.data)
    return <Spin tip={t('interaction.view.loading')} data-testid="interaction-loading" />;
  return (
    <InteractionView
      data={{
        summary: props.outputs.summary as InteractionSummary,
        meta: metaQ.data,
        means: new Float32Array(meansQ.data),
        pvalues: new Float32Array(pvaluesQ.data),
      }}
    />
  );
}
