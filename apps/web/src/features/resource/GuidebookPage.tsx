import { Col, Menu, Row, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useBilingual } from '../../shared/useBilingual';
import { HtmlBlock } from '../../shared/HtmlBlock';
import { QueryState } from '../../shared/QueryState';
import { useDocs } from './useDocs';

/** /guidebook?id=<entry>: chapter list beside the selected chapter (first when no id). */
export default function GuidebookPage() {
  const { t } = useTranslation('resource');
  const [params, setParams] = useSearchParams();
  const docs = useDocs('guidebook');
  const pick = useBilingual();
  const entries = docs.data ?? [];
  const current = entries.find((e) => e.id === params.get('id')) ?? entries[0];
  return (
    <>
      <Typography.Title level={2}>{t('guidebook.title')}</Typography.Title>
      <QueryState
        isPending={docs.isPending}
        isError={docs.isError}
        isEmpty={entries.length === 0}
        emptyText={t('guidebook.empty')}
        onRetry={() => void docs.refetch()}
      >
        <Row gutter={24}>
          <Col xs={24} md={6}>
            <Menu
              mode="inline"
              selectedKeys={current ? [current.id] : []}
              items={entries.map((e) => ({ key: e.id, label: pick(e.title) }))}
              onClick={({ key }) => setParams({ id: key })}
            />
          </Col>
          <Col xs={24} md={18}>
            {current && (
              <article data-testid="guidebook-chapter">
                <Typography.Title level={3}>{pick(current.title)}</Typography.Title>
                <HtmlBlock html={pick(current.body)} />
              </article>
            )}
          </Col>
        </Row>
      </QueryState>
    </>
  );
}
