import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { sampleNameField } from '@cellcloud/contracts/files';
import { checkSampleName } from '../../api/files';
import { filesKey } from './format';

/**
 * Live validation of a sample name (docs/product/validation.md#job-and-sample-names): the contracts rule with its translated message,
 * then "name exists, please type another" when the user already has it.
 */
export function useSampleNameRules(exceptCurrent?: string): FormRule[] {
  const { t } = useTranslation('files');
  return [
    { required: true, message: t('sampleName.required') },
    {
      validator: async (_rule, value: unknown) => {
        if (typeof value !== 'string' || value === '') return;
        const r = sampleNameField.safeParse(value);
        if (!r.success)
          throw new Error(t(filesKey(r.error.issues[0]?.message ?? 'files.sampleName.invalid')));
        if (value.trim() === exceptCurrent) return;
        const free = await checkSampleName(value.trim()).catch(() => ({ available: true }));
        if (!free.available) throw new Error(t('sampleName.exists'));
      },
    },
  ];
}
