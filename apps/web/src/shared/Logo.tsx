import { useTranslation } from 'react-i18next';

/** Product mark + name. */
export function Logo() {
  const { t } = useTranslation('shell');
  return (
    <>
      <img src="/favicon.svg" alt="" width={28} height={28} />
      <span>{t('product.name')}</span>
    </>
  );
}
