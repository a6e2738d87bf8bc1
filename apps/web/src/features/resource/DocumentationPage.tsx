import { Anchor, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useBilingual } from '../../shared/useBilingual';
import { HtmlBlock } from '../../shared/HtmlBlock';
import { QueryState } from '../../shared/QueryState';
import { useDocs } from './useDocs';

/** /documentation: every documentation entry on one page with an outline. */
export default function DocumentationPage() {
  const { t } = useTranslation('resource');
  const docs = useDocs('documentation');
  const pick = useBilingual();
  const entries = docs.data ?? [];
  return (
    <>
      <Typography.Title level={2}>{t('documentation.title')}</Typography.Title>
      <QueryState
        isPending={docs.isPending}
        isError={docs.isError}
        isEmpty={entries.length === 0}
        emptyText={t('documentation.empty')}
        onRetry={() => void docs.refetch()}
      >
        <Row gutter={24}>
          <Col xs={0} md={6}>
            <Anchor
              offsetTop={72}
              items={entries.map((e) => ({ key: e.id, href: `#doc-${e.id}`, title: pick(e.title) }))}
            />
          </Col>
          <Col xs={24} md={18}>
            {entries.map((e) => (
              <section key={e.id} id={`doc-${e.id}`} style={{ marginBottom: 32 }}>
                <Typography.Title level={3}>{pick(e.title)}</Typography.Title>
                <HtmlBlock html={pick(e.body)} />
              </section>
            ))}
          </Col>
        </Row>
      </QueryState>
    </>
  );
}
