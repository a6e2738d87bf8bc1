import { Collapse, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFaq } from '../../api/content';
import { useBilingual } from '../../shared/useBilingual';
import { HtmlBlock } from '../../shared/HtmlBlock';
import { QueryState } from '../../shared/QueryState';

/** /faq: questions and answers from /content/listFaq. */
export default function FaqPage() {
  const { t } = useTranslation('resource');
  const faq = useFaq();
  const pick = useBilingual();
  return (
    <>
      <Typography.Title level={2}>{t('faq.title')}</Typography.Title>
      <QueryState
        isPending={faq.isPending}
        isError={faq.isError}
        isEmpty={(faq.data ?? []).length === 0}
        emptyText={t('faq.empty')}
        onRetry={() => void faq.refetch()}
      >
        <Collapse
          items={(faq.data ?? []).map((f) => ({
            key: f.id,
            label: pick(f.question),
            children: <HtmlBlock html={pick(f.answer)} />,
          }))}
        />
      </QueryState>
    </>
  );
}
