import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  Form,
  Input,
  Modal,
  Popconfirm,
  Row,
  Select,
  Space,
  Table,
  Tag,
} from 'antd';
import { useTranslation } from 'react-i18next';
import type {
  AuthoredBody,
  AuthoredItem,
  AuthoredKind,
  TextFormat,
} from '@cellcloud/contracts/admin-content';
import {
  useAuthored,
  useDeleteAuthored,
  usePreview,
  useReorderAuthored,
  useSaveAuthored,
} from '../../api/admin-content';
import { HtmlBlock } from '../../shared/HtmlBlock';
import { useBilingual } from '../../shared/useBilingual';
import { MoveButtons } from './MoveButtons';

interface Fields {
  titleEn: string;
  titleZh: string;
  bodyEn: string;
  bodyZh: string;
  docType: 'all' | 'CN' | 'global';
  date: string;
  format: TextFormat;
}

const toFields = (x: AuthoredItem | null): Fields => ({
  titleEn: x?.title['en-US'] ?? '',
  titleZh: x?.title['zh-CN'] ?? '',
  bodyEn: x?.body['en-US'] ?? '',
  bodyZh: x?.body['zh-CN'] ?? '',
  docType: x?.docType ?? 'all',
  date: x?.date ?? new Date().toISOString().slice(0, 10),
  // new entries are written in Markdown; the seeded pages are HTML
  format: x?.format ?? 'markdown',
});

/** The preview of one language's text, rendered by the server as the public page will show it. */
function Preview({
  text,
  format,
  title,
  testId,
}: {
  text: string;
  format: TextFormat;
  title: string;
  testId: string;
}) {
  const html = usePreview(text, format, true);
  return (
    <Card size="small" title={title} data-testid={testId} loading={html.isPending && !html.data}>
      <HtmlBlock html={html.data ?? ''} />
    </Card>
  );
}

/**
 * List and editor of one kind of help content (FAQ, documentation, guidebook, update log): add,
 * edit in both languages with a live preview of the HTML as the public page renders it, delete,
 * move up / down (the update log is ordered by date).
 */
export function ContentEditor({ kind }: { kind: AuthoredKind }) {
  const { t } = useTranslation('content');
  const pick = useBilingual();
  const list = useAuthored(kind);
  const save = useSaveAuthored(kind);
  const del = useDeleteAuthored(kind);
  const reorder = useReorderAuthored(kind);
  const [editing, setEditing] = useState<AuthoredItem | 'new' | null>(null);
  const [form] = Form.useForm<Fields>();
  const bodyEn = Form.useWatch('bodyEn', form) ?? '';
  const bodyZh = Form.useWatch('bodyZh', form) ?? '';
  const format = Form.useWatch('format', form) ?? 'markdown';
  const items = list.data ?? [];
  const dated = kind === 'updateLog';
  const docs = kind === 'documentation' || kind === 'guidebook';

  const open = (x: AuthoredItem | 'new') => {
    save.reset();
    setEditing(x);
  };
  const submit = (f: Fields) => {
    const body: AuthoredBody = {
      body: { 'en-US': f.bodyEn, 'zh-CN': f.bodyZh },
      format: f.format,
      ...(dated ? { date: f.date } : { title: { 'en-US': f.titleEn, 'zh-CN': f.titleZh } }),
      ...(docs ? { docType: f.docType } : {}),
    };
    save.mutate(
      { id: editing === 'new' || editing === null ? undefined : editing.id, body },
      { onSuccess: () => setEditing(null) },
    );
  };

  return (
    <>
      <Button
        type="primary"
        data-testid="content-add"
        onClick={() => open('new')}
        style={{ marginBottom: 12 }}
      >
        {t(`add.${kind}`)}
      </Button>
      <Table<AuthoredItem>
        scroll={{ x: 'max-content' }}
        size="small"
        rowKey="id"
        data-testid={`content-list-${kind}`}
        loading={list.isLoading}
        dataSource={items}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        locale={{ emptyText: t('empty') }}
        columns={[
          ...(dated
            ? [{ key: 'date', title: t('date'), dataIndex: 'date' }]
            : [{ key: 'title', title: t('title'), render: (_: unknown, x: AuthoredItem) => pick(x.title) }]),
          ...(dated
            ? [
                {
                  key: 'text',
                  title: t('text'),
                  render: (_: unknown, x: AuthoredItem) => <HtmlBlock html={pick(x.body)} />,
                },
              ]
            : []),
          ...(docs
            ? [
                {
                  key: 'docType',
                  title: t('docType.label'),
                  render: (_: unknown, x: AuthoredItem) => <Tag>{t(`docType.${x.docType ?? 'all'}`)}</Tag>,
                },
              ]
            : []),
          {
            key: 'actions',
            title: t('actions'),
            width: 260,
            render: (_: unknown, x: AuthoredItem) => (
              <Space size={4}>
                {!dated && (
                  <MoveButtons
                    ids={items.map((y) => y.id)}
                    id={x.id}
                    busy={reorder.isPending}
                    onOrder={(ids) => reorder.mutate(ids)}
                  />
                )}
                <Button size="small" data-testid="content-edit" onClick={() => open(x)}>
                  {t('edit')}
                </Button>
                <Popconfirm title={t('deleteConfirm')} onConfirm={() => del.mutate(x.id)}>
                  <Button size="small" danger data-testid="content-delete">
                    {t('delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        width={1000}
        title={editing === 'new' ? t(`add.${kind}`) : t('edit')}
        okText={t('save')}
        cancelText={t('cancel')}
        okButtonProps={{ loading: save.isPending, id: 'content-save' }}
        onOk={() => form.submit()}
        onCancel={() => setEditing(null)}
        destroyOnHidden
      >
        {save.error && (
          <Alert type="error" showIcon message={save.error.message} style={{ marginBottom: 12 }} />
        )}
        <Form<Fields>
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={toFields(editing === 'new' ? null : editing)}
        >
          <Row gutter={16}>
            {dated ? (
              <Col span={12}>
                <Form.Item name="date" label={t('date')} rules={[{ required: true, message: t('required') }]}>
                  <Input type="date" data-testid="content-date" />
                </Form.Item>
              </Col>
            ) : (
              <>
                <Col span={12}>
                  <Form.Item
                    name="titleEn"
                    label={t('titleEn')}
                    rules={[{ required: true, message: t('required') }]}
                  >
                    <Input data-testid="content-title-en" />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item
                    name="titleZh"
                    label={t('titleZh')}
                    rules={[{ required: true, message: t('required') }]}
                  >
                    <Input data-testid="content-title-zh" />
                  </Form.Item>
                </Col>
              </>
            )}
            <Col span={6}>
              <Form.Item name="format" label={t('format.label')}>
                <Select
                  data-testid="content-format"
                  options={(['markdown', 'html'] as const).map((v) => ({
                    value: v,
                    label: t(`format.${v}`),
                  }))}
                />
              </Form.Item>
            </Col>
            {docs && (
              <Col span={6}>
                <Form.Item name="docType" label={t('docType.label')}>
                  <Select
                    options={(['all', 'global', 'CN'] as const).map((v) => ({
                      value: v,
                      label: t(`docType.${v}`),
                    }))}
                  />
                </Form.Item>
              </Col>
            )}
          </Row>
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item
                name="bodyEn"
                label={t('bodyEn')}
                extra={t(format === 'markdown' ? 'markdownHint' : 'htmlHint')}
                rules={[{ required: true, message: t('required') }]}
              >
                <Input.TextArea rows={8} data-testid="content-body-en" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="bodyZh"
                label={t('bodyZh')}
                rules={[{ required: true, message: t('required') }]}
              >
                <Input.TextArea rows={8} data-testid="content-body-zh" />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16}>
            <Col span={12}>
              {editing !== null && (
                <Preview text={bodyEn} format={format} title={t('previewEn')} testId="content-preview-en" />
              )}
            </Col>
            <Col span={12}>
              {editing !== null && (
                <Preview text={bodyZh} format={format} title={t('previewZh')} testId="content-preview-zh" />
              )}
            </Col>
          </Row>
        </Form>
      </Modal>
    </>
  );
}
