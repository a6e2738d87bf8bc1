import { useState } from 'react';
import {
  Button,
  Card,
  Checkbox,
  Col,
  Descriptions,
  Drawer,
  Empty,
  Input,
  Row,
  Space,
  Spin,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { TableProps } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  PUBLIC_FACETS,
  type PublicDatasetSummary,
  type PublicFacet,
} from '@cellcloud/contracts/public-datasets';
import {
  usePublicDataset,
  usePublicMapping,
  usePublicSearch,
  type PublicSearchState,
} from '../../api/public-datasets';
import { PublicAccessPanel } from './PublicAccessPanel';
import { PublicPreview, publicExploreId } from './PublicPreview';
import { usePublicAccess } from './usePublicAccess';

/**
 * The public database page (issue 20): full-text search, facets with counts, a sortable list and a
 * detail drawer (metadata, article link, samples, annotation levels; the embedding preview of the
 * standard analysis coloured by level or gene, PublicPreview.tsx) with "add to analysis" (the
 * integrate wizard, where public datasets are samples) and "open in explorer" (read-only) when analysed.
 */
export default function PublicDatabasePage() {
  const access = usePublicAccess();
  if (!access.loaded) return <Spin />;
  return access.canRead ? <PublicCatalogue /> : <PublicAccessPanel />;
}

function PublicCatalogue() {
  const { t } = useTranslation('publicdb');
  const navigate = useNavigate();
  // `?q=` comes from the home page search (display switch "home searches")
  const [params] = useSearchParams();
  const initial = params.get('q')?.trim() ?? '';
  const [text, setText] = useState(initial);
  const [s, setS] = useState<PublicSearchState>({
    q: initial,
    filters: {},
    sort: 'updated',
    order: 'desc',
    page: 1,
    pageSize: 20,
  });
  const [openId, setOpenId] = useState<string | null>(null);
  const q = usePublicSearch(s);
  const res = q.data;

  const setFacet = (f: PublicFacet, values: string[]) =>
    setS((x) => ({ ...x, page: 1, filters: { ...x.filters, [f]: values } }));
  const onTable: TableProps<PublicDatasetSummary>['onChange'] = (p, _f, sorter) => {
    const one = Array.isArray(sorter) ? sorter[0] : sorter;
    const key = one?.order ? (one.columnKey as PublicSearchState['sort']) : 'updated';
    setS((x) => ({
      ...x,
      page: p.current ?? 1,
      pageSize: p.pageSize ?? 20,
      sort: key,
      order: one?.order === 'ascend' ? 'asc' : 'desc',
    }));
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Title level={2}>{t('title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <Input.Search
        data-testid="publicdb-search"
        placeholder={t('searchPlaceholder')}
        allowClear
        enterButton={t('search')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onSearch={(v) => setS((x) => ({ ...x, q: v.trim(), page: 1 }))}
      />
      <Row gutter={16}>
        <Col xs={24} md={6}>
          <Space orientation="vertical" style={{ width: '100%' }}>
            {PUBLIC_FACETS.map((f) => (
              <Card key={f} size="small" title={t(`facets.${f}`)} data-testid={`publicdb-facet-${f}`}>
                {res?.facets[f]?.length ? (
                  <Checkbox.Group
                    style={{ display: 'flex', flexDirection: 'column' }}
                    value={s.filters[f] ?? []}
                    onChange={(v) => setFacet(f, v as string[])}
                    options={res.facets[f].map((c) => ({ value: c.value, label: `${c.value} (${c.count})` }))}
                  />
                ) : (
                  <Typography.Text type="secondary">{t('noValues')}</Typography.Text>
                )}
              </Card>
            ))}
          </Space>
        </Col>
        <Col xs={24} md={18}>
          <Table<PublicDatasetSummary>
            data-testid="publicdb-table"
            rowKey="id"
            loading={q.isFetching}
            dataSource={res?.items ?? []}
            locale={{ emptyText: <Empty description={t('empty')} /> }}
            onChange={onTable}
            pagination={{
              current: s.page,
              pageSize: s.pageSize,
              total: res?.total ?? 0,
              showTotal: (n) => t('total', { count: n }),
            }}
            onRow={(r) => ({ onClick: () => setOpenId(r.id), style: { cursor: 'pointer' } })}
            columns={[
              { key: 'title', dataIndex: 'title', title: t('columns.title'), sorter: true },
              { key: 'species', dataIndex: 'species', title: t('columns.species') },
              { key: 'tissue', title: t('columns.tissue'), render: (_, r) => r.tissue.join(', ') },
              { key: 'disease', title: t('columns.disease'), render: (_, r) => r.disease.join(', ') },
              {
                key: 'cells',
                dataIndex: 'cells',
                title: t('columns.cells'),
                sorter: true,
                render: (n: number) => n.toLocaleString(),
              },
              { key: 'year', title: t('columns.year'), sorter: true, render: (_, r) => r.article.year ?? '' },
              {
                key: 'levels',
                title: t('columns.levels'),
                render: (_, r) => r.annotationLevels.map((l) => <Tag key={l}>{l}</Tag>),
              },
            ]}
          />
        </Col>
      </Row>
      <DatasetDrawer
        id={openId}
        onClose={() => setOpenId(null)}
        onAdd={(id) => navigate(`/integrateLocalAndSynEcoSys?public=${encodeURIComponent(id)}`)}
      />
    </Space>
  );
}

function DatasetDrawer({
  id,
  onClose,
  onAdd,
}: {
  id: string | null;
  onClose: () => void;
  onAdd: (id: string) => void;
}) {
  const { t } = useTranslation('publicdb');
  const navigate = useNavigate();
  const d = usePublicDataset(id).data;
  const m = usePublicMapping(id).data;
  const a = d?.article;
  return (
    <Drawer open={!!id} onClose={onClose} size="large" title={d?.title} data-testid="publicdb-detail">
      {d && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Space>
            <Button type="primary" data-testid="publicdb-add" onClick={() => onAdd(d.id)}>
              {t('addToAnalysis')}
            </Button>
            {d.analysisId && (
              <Button
                data-testid="publicdb-open-explorer"
                onClick={() =>
                  navigate(`/userDatasetAnalysis?id=${encodeURIComponent(publicExploreId(d.id))}`)
                }
              >
                {t('openInExplorer')}
              </Button>
            )}
          </Space>
          <Typography.Paragraph>{d.description}</Typography.Paragraph>
          {d.analysisId && <PublicPreview datasetId={d.id} levels={d.annotationLevels} />}
          <Descriptions bordered size="small" column={1}>
            <Descriptions.Item label={t('columns.species')}>{d.species}</Descriptions.Item>
            <Descriptions.Item label={t('facets.tissue')}>{d.tissue.join(', ')}</Descriptions.Item>
            <Descriptions.Item label={t('facets.disease')}>{d.disease.join(', ')}</Descriptions.Item>
            <Descriptions.Item label={t('facets.developmentStage')}>
              {d.developmentStage.join(', ')}
            </Descriptions.Item>
            <Descriptions.Item label={t('facets.assay')}>{d.assay.join(', ')}</Descriptions.Item>
            <Descriptions.Item label={t('columns.cells')}>{d.cells.toLocaleString()}</Descriptions.Item>
            <Descriptions.Item label={t('genes')}>{d.genes.toLocaleString()}</Descriptions.Item>
            <Descriptions.Item label={t('article')}>
              {a?.title ?? ''} {a?.journal ? `— ${a.journal}` : ''} {a?.year ?? ''}{' '}
              {a?.doi && (
                <a
                  href={`https://doi.org/${a.doi}`}
                  target="_blank"
                  rel="noreferrer"
                  data-testid="publicdb-doi"
                >
                  doi:{a.doi}
                </a>
              )}{' '}
              {a?.pmid && (
                <a href={`https://pubmed.ncbi.nlm.nih.gov/${a.pmid}/`} target="_blank" rel="noreferrer">
                  PMID {a.pmid}
                </a>
              )}
            </Descriptions.Item>
            {d.sourceUrl && (
              <Descriptions.Item label={t('source')}>
                <a href={d.sourceUrl} target="_blank" rel="noreferrer">
                  {d.sourceUrl}
                </a>
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('licence')}>{d.licence ?? ''}</Descriptions.Item>
            <Descriptions.Item label={t('ontologyIds')}>{d.ontologyIds.join(', ')}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5}>{t('samples')}</Typography.Title>
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={d.samples}
            columns={[
              { key: 'id', dataIndex: 'id', title: t('sampleId') },
              { key: 'cells', dataIndex: 'cells', title: t('columns.cells') },
              {
                key: 'meta',
                title: t('metadata'),
                render: (_, r) =>
                  Object.entries(r.metadata)
                    .map(([k, v]) => `${k}: ${v}`)
                    .join('; '),
              },
            ]}
          />
          <Typography.Title level={5} data-testid="publicdb-composition-title">
            {t('compositionCells', { count: d.cells })}
          </Typography.Title>
          {m?.levels.map((l) => (
            <div key={l.level} data-testid={`publicdb-level-${l.level}`}>
              <Typography.Text strong>{l.level}</Typography.Text>{' '}
              {l.values.map((v) => (
                <Tag key={v.value}>
                  {v.value} ({v.count})
                </Tag>
              ))}
            </div>
          ))}
        </Space>
      )}
    </Drawer>
  );
}
