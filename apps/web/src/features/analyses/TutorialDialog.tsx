import { useEffect, useState } from 'react';
import { Button, Checkbox, Modal, Steps, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePreferences, useUpdatePreferences } from '../../api/preferences';

const STEPS = ['welcome', 'overview', 'upload', 'initiate'] as const;

/**
 * First-visit tutorial (docs/product/overview.md#first-visit-tutorial): welcome, homepage overview, upload matrix, initiate analysis.
 * Opens on My Analyses until the user closes it once (X, Done or "don't show again"); the choice
 * is stored on the server per user, so another browser agrees (issue 22 item 4). Resource →
 * "Show the tutorial" reopens it (`/my_analyzes?tutorial=1`).
 */
export function TutorialDialog() {
  const { t } = useTranslation('analyses');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const prefs = usePreferences();
  const update = useUpdatePreferences();
  const asked = params.get('tutorial') === '1';
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    if (asked) setClosed(false); // "Show the tutorial" opens it again
  }, [asked]);
  const open = !closed && (asked || (prefs.isSuccess && !prefs.data.tutorialDismissed));
  const [step, setStep] = useState(0);
  const [never, setNever] = useState(false);
  const key = STEPS[step] ?? 'welcome';
  const close = () => {
    setClosed(true);
    if (asked) {
      const next = new URLSearchParams(params);
      next.delete('tutorial');
      setParams(next, { replace: true });
    }
    if (!prefs.data?.tutorialDismissed) update.mutate({ tutorialDismissed: true });
  };
  const last = step === STEPS.length - 1;
  return (
    <Modal
      open={open}
      onCancel={close}
      width={640}
      title={t('tutorial.title')}
      data-testid="tutorial"
      footer={
        <div
          style={{
            display: 'flex',
            justifyContent: 'space-between',
            alignItems: 'center',
            flexWrap: 'wrap',
            gap: 8,
          }}
        >
          <Checkbox checked={never} onChange={(e) => setNever(e.target.checked)} data-testid="tutorial-never">
            {t('tutorial.never')}
          </Checkbox>
          <div style={{ display: 'flex', gap: 8 }}>
            <Button
              type="link"
              onClick={() => {
                close();
                navigate('/guidebook');
              }}
            >
              {t('tutorial.seeMore')}
            </Button>
            {step > 0 && <Button onClick={() => setStep(step - 1)}>{t('tutorial.previous')}</Button>}
            {last ? (
              <Button type="primary" onClick={close} data-testid="tutorial-close">
                {t('tutorial.done')}
              </Button>
            ) : (
              <Button type="primary" onClick={() => setStep(step + 1)} data-testid="tutorial-next">
                {t('tutorial.next')}
              </Button>
            )}
          </div>
        </div>
      }
    >
      <Steps
        size="small"
        current={step}
        onChange={setStep}
        items={STEPS.map((s) => ({ title: t(`tutorial.steps.${s}.title`) }))}
        style={{ marginBottom: 24 }}
      />
      <Typography.Title level={4}>{t(`tutorial.steps.${key}.title`)}</Typography.Title>
      <Typography.Paragraph>{t(`tutorial.steps.${key}.body`)}</Typography.Paragraph>
    </Modal>
  );
}
