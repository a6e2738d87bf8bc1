import { Alert, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InteractionMeta, InteractionSummary } from '@cellcloud/contracts/tasks/interaction';
import { fetchTaskFile } from '../../../../api/tasks';
import type { WebTaskViewProps } from '../types';
import type { InteractionData } from './interactionCharts';
import { InteractionView } from './InteractionView';

/** The generic task tab's slot for `interaction`: loads interactions.json + means/pvalues (float32) and shows the views. */
export function InteractionTaskView({ datasetId, task, outputs }: WebTaskViewProps) {
  const { t } = useTranslation('interaction');
  const [data, setData] = useState<InteractionData | Error | null>(null);
  useEffect(() => {
    let live = true;
    const file = (name: string) => {
      const entry = outputs.outputs.files.find((f) => f.name === name);
      if (!entry) return Promise.reject(new Error(`${name} missing`));
      return fetchTaskFile(datasetId, task.id, entry.file);
    };
    setData(null);
    Promise.all([file('interactions.json'), file('means.bin'), file('pvalues.bin')]).then(
      ([meta, means, pvalues]) =>
        live &&
        setData({
          summary: outputs.summary as InteractionSummary,
          meta: JSON.parse(new TextDecoder().decode(meta)) as InteractionMeta,
          means: new Float32Array(means),
          pvalues: new Float32Array(pvalues),
        }),
      (e: unknown) => live && setData(e instanceof Error ? e : new Error(String(e))),
    );
    return () => {
      live = false;
    };
  }, [datasetId, task.id, outputs]);
  if (data instanceof Error)
    return <Alert type="error" showIcon message={t('loadFailed', { detail: data.message })} />;
  if (!data) return <Spin tip={t('loading')} data-testid="interaction-loading" />;
  return <InteractionView data={data} />;
}
