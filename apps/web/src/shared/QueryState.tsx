import type { ReactNode } from 'react';
import { Button, Empty, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from './PageSpinner';

/** Loading / error / empty states of a query-backed page, then its content. */
export function QueryState({
  isPending,
  isError,
  isEmpty,
  emptyText,
  onRetry,
  children,
}: {
  isPending: boolean;
  isError: boolean;
  isEmpty: boolean;
  emptyText: string;
  onRetry: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('common');
  if (isPending) return <PageSpinner />;
  if (isError)
    return (
      <Result
        status="warning"
        title={t('loadFailed')}
        extra={<Button onClick={onRetry}>{t('retry')}</Button>}
      />
    );
  if (isEmpty) return <Empty description={emptyText} />;
  return <>{children}</>;
}
