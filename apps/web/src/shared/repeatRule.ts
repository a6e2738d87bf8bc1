import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';

/** "Passwords do not match" rule for a repeat field that depends on `password`. */
export function repeatRule(t: TFunction, field = 'password'): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_r, v: unknown) => {
      if (v && v !== getFieldValue(field)) throw new Error(t('validation:password.mismatch'));
    },
  });
}
