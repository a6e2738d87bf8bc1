import { useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Card, Empty, Space, Spin, Steps, Typography } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { submitJob, jobsKeys } from '../../api/jobs';
import { discardCellFiltering, useAnalysableSamples, wizardKeys } from '../../api/wizard';
import { ApiError } from '../../api/client';
import { AnalysisOptionsStep } from './AnalysisOptionsStep';
import { CellFilteringStep } from './CellFilteringStep';
import { PreviewStep } from './PreviewStep';
import { SelectSamplesStep } from './SelectSamplesStep';
import { optionsStepErrors, proposedSampleName, samplesStepErrors, type RuleKey } from './stepRules';
import { useWizard } from './useWizard';

export type IntegrateSource = 'local' | 'public' | 'both';

const STEPS = ['selectSamples', 'cellFiltering', 'analysisOptions', 'preview'] as const;

/**
 * The initiate/integrate wizard (docs/product/screens.md#analysis-wizard): 1 select samples, 2 cell filtering, 3 analysis
 * options, 4 preview; Next / Previous / Save as draft / Submit analysis. `?draftId=` resumes a
 * saved draft (or a re-edited job) at its step. Public (SynEcoSys) sources list the public database
 * datasets as samples (`public:<datasetId>`, server `?source=`), beside the user's for 'both'.
 */
export function IntegratePage({ source }: { source: IntegrateSource }) {
  const { t } = useTranslation('wizard');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const w = useWizard(params.get('draftId'));
  const samplesQ = useAnalysableSamples(source);
  const samples = samplesQ.data ?? [];
  // "Add to analysis" on the public database page: ?public=<datasetId> preselects that dataset.
  const preselect = params.get('public');
  const preselectSample = preselect ? samples.find((x) => x.id === `public:${preselect}`) : undefined;
  const { setDatasets } = w;
  const noneSelected = !w.loading && w.draft.datasets.length === 0;
  useEffect(() => {
    if (preselectSample && noneSelected)
      setDatasets([{ id: preselectSample.id, name: proposedSampleName(preselectSample.name), group: 'g1' }]);
  }, [preselectSample, noneSelected, setDatasets]);
  // Local + public (issue 20): Harmony by default on a new wizard (a draft keeps its own choice).
  const { setParam } = w;
  const harmonyDefault = useRef(source === 'both' && !params.get('draftId'));
  useEffect(() => {
    if (!harmonyDefault.current || w.loading) return;
    harmonyDefault.current = false;
    setParam({ batchRemoveMethod: 'harmony' });
  }, [w.loading, setParam]);
  const [errors, setErrors] = useState<RuleKey[]>([]);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const stepErrors = (step: number): RuleKey[] =>
    step === 1 ? samplesStepErrors(w.draft, samples) : step === 3 ? optionsStepErrors(w.draft) : [];

  const next = () => {
    const e = stepErrors(w.step);
    setErrors(e);
    if (!e.length) w.setStep(w.step + 1);
  };
  const previous = async () => {
    setErrors([]);
    // Going back from the evaluation discards the preprocessing results (docs/product/states.md#cell-filtering).
    if (w.step === 2 && w.draftId && w.draft.param.cellFilteringEvaluation === 'evaluate') {
      await discardCellFiltering(w.draftId);
      w.setCellFilteringStatus('notStarted');
      await qc.invalidateQueries({ queryKey: wizardKeys.cellFiltering(w.draftId) });
    }
    w.setStep(w.step - 1);
  };
  const saveDraft = async () => {
    setBusy(true);
    try {
      await w.save();
      void message.success(t('saved'));
    } catch (e) {
      setServerError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const submit = async () => {
    const e = [...stepErrors(1), ...stepErrors(3)];
    setErrors(e);
    if (e.length) return;
    setBusy(true);
    setServerError(null);
    try {
      const job = await submitJob({ ...w.draft, id: w.draftId, stepTag: 4 });
      await qc.invalidateQueries({ queryKey: jobsKeys.all });
      void message.success(t('submitted'));
      navigate(`/my_analyzes?tab=${job.kind === 'integrated' ? 'integrated' : 'custom'}`);
    } catch (err) {
      setServerError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  if (w.loading || samplesQ.isLoading) return <Spin />;
  const empty = !samples.length;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Title level={2}>{t(`title.${source}`)}</Typography.Title>
      <Typography.Paragraph type="secondary">{t(`intro.${source}`)}</Typography.Paragraph>
      <Steps current={w.step - 1} items={STEPS.map((s) => ({ title: t(`steps.${s}`) }))} responsive />
      <Card title={t(`steps.${STEPS[w.step - 1]}`)} data-testid={`wizard-step-${w.step}`}>
        {source !== 'local' && (
          <Alert
            type="info"
            showIcon
            title={t('publicNote')}
            action={<Link to="/publicDatabase">{t('publicdb:title')}</Link>}
            style={{ marginBottom: 16 }}
          />
        )}
        {empty && source === 'public' ? (
          <Empty description={t('empty.public')} />
        ) : (
          <>
            {w.step === 1 && <SelectSamplesStep w={w} samples={samples} />}
            {w.step === 2 && <CellFilteringStep w={w} />}
            {w.step === 3 && <AnalysisOptionsStep w={w} samples={samples} />}
            {w.step === 4 && <PreviewStep w={w} samples={samples} />}
          </>
        )}
      </Card>
      {errors.length > 0 && (
        <Alert
          type="error"
          showIcon
          data-testid="wizard-errors"
          title={errors.map((k) => t(k)).join(' · ')}
        />
      )}
      {serverError && <Alert type="error" showIcon data-testid="wizard-server-error" title={serverError} />}
      <Space style={{ justifyContent: 'flex-end', width: '100%' }} wrap>
        <Button disabled={w.step === 1 || busy} onClick={() => void previous()}>
          {t('buttons.previous')}
        </Button>
        <Button disabled={empty || busy} onClick={() => void saveDraft()} data-testid="wizard-save-draft">
          {t('buttons.saveDraft')}
        </Button>
        {w.step < 4 ? (
          <Button type="primary" disabled={empty} onClick={next} data-testid="wizard-next">
            {t('buttons.next')}
          </Button>
        ) : (
          <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="wizard-submit">
            {t('buttons.submit')}
          </Button>
        )}
      </Space>
    </Space>
  );
}
