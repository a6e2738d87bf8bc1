import { useTranslation } from 'react-i18next';
import type { FormRule } from 'antd';
import type { z } from 'zod';

/**
 * An antd Form rule from a contracts zod schema: its message keys (`validation.*`) are
 * translated with the `validation` namespace, so web and server show the same texts.
 */
export function useZodRule() {
  const { t } = useTranslation('validation');
  return (schema: z.ZodType): FormRule => ({
    validator: async (_rule, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      const r = schema.safeParse(value);
      if (!r.success) throw new Error(translateIssue(t, r.error.issues[0]?.message));
    },
  });
}

export function translateIssue(t: (k: string) => string, key: string | undefined): string {
  if (!key) return t('invalid');
  return key.startsWith('validation.') ? t(key.slice('validation.'.length)) : key;
}
