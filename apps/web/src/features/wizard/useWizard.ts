import { useCallback, useEffect, useState } from 'react';
import {
  applyPreset,
  type DraftParam,
  type WizardDraft,
  type WizardPreset,
  type WizardSample,
} from '@cellcloud/contracts/wizard';
import { saveDraft, useDraft } from '../../api/wizard';
import { emptyDraft } from './emptyDraft';

/** The wizard's state: the draft (docs/product/entities.md#analysis-draft fields), its server id once saved, the current step. */
export interface WizardState {
  draft: WizardDraft;
  draftId: string | undefined;
  step: number;
  loading: boolean;
  setStep(step: number): void;
  setParam(patch: Partial<DraftParam>): void;
  setDatasets(datasets: WizardSample[]): void;
  /** Set the filter fields to a preset's values (droplet defaults or plate-based). */
  setPreset(preset: WizardPreset): void;
  setCellFilteringStatus(status: WizardDraft['cellFilteringTaskStatus']): void;
  /** Save as draft (create or update) at the current step; returns the draft id. */
  save(): Promise<string>;
}

/** Wizard state, resumed from `draftId` (a saved draft or a re-edited job) at its step. */
export function useWizard(initialDraftId: string | null): WizardState {
  const loaded = useDraft(initialDraftId);
  const [draft, setDraft] = useState<WizardDraft>(emptyDraft);
  const [draftId, setDraftId] = useState<string | undefined>(initialDraftId ?? undefined);
  const [step, setStep] = useState(1);

  useEffect(() => {
    if (!loaded.data) return;
    setDraft(loaded.data.draft);
    setDraftId(loaded.data.id);
    setStep(loaded.data.stepTag);
  }, [loaded.data]);

  const setParam = useCallback(
    (patch: Partial<DraftParam>) => setDraft((d) => ({ ...d, param: { ...d.param, ...patch } })),
    [],
  );
  const setDatasets = useCallback((datasets: WizardSample[]) => setDraft((d) => ({ ...d, datasets })), []);
  const setPreset = useCallback(
    (preset: WizardPreset) => setDraft((d) => ({ ...d, param: applyPreset(d.param, preset) })),
    [],
  );
  const setCellFilteringStatus = useCallback(
    (cellFilteringTaskStatus: WizardDraft['cellFilteringTaskStatus']) =>
      setDraft((d) => ({ ...d, cellFilteringTaskStatus })),
    [],
  );

  const save = useCallback(async () => {
    const saved = await saveDraft({ ...draft, id: undefined, stepTag: step, pageTag: 'myAnalyzes' }, draftId);
    setDraftId(saved.id);
    return saved.id;
  }, [draft, draftId, step]);

  return {
    draft,
    draftId,
    step,
    loading: !!initialDraftId && loaded.isLoading,
    setStep,
    setParam,
    setDatasets,
    setPreset,
    setCellFilteringStatus,
    save,
  };
}
