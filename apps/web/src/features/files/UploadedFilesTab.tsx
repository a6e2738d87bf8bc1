import { useState } from 'react';
import { Button, Empty, Input, Popconfirm, Space, Table, Typography, type TableProps } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { UploadRow } from '@cellcloud/contracts/files';
import { useDeleteUpload, useUploads, type UploadsQuery } from '../../api/files';
import { formatBytes } from './format';
import { RenameDialog } from './RenameDialog';
import { UploadStateCell } from './UploadStateCell';
import { uploadFormatKey } from './uploadFormatKey';

/**
 * My Analyses → uploaded files (docs/product/entities.md#upload-list): fileName and uploadedOn sortable, size, format, state
 * (with progress, failure reason and retry), species with Ensembl overlap; search, paging,
 * rename and delete with confirmation. Also shown under the Import Data form.
 */
export default function UploadedFilesTab() {
  const { t } = useTranslation('files');
  const navigate = useNavigate();
  const [q, setQ] = useState<UploadsQuery>({ pageNum: 1, pageSize: 10, sortBy: 'uploadedOn', order: 'desc' });
  const { data, isFetching } = useUploads(q);
  const del = useDeleteUpload();
  const [renaming, setRenaming] = useState<UploadRow | null>(null);

  const sortOrder = (field: UploadsQuery['sortBy']) =>
    q.sortBy === field ? (q.order === 'asc' ? 'ascend' : 'descend') : null;
  const columns: TableProps<UploadRow>['columns'] = [
    {
      key: 'fileName',
      dataIndex: 'fileName',
      title: t('columns.fileName'),
      sorter: true,
      sortOrder: sortOrder('fileName'),
    },
    {
      key: 'fileSize',
      dataIndex: 'fileSize',
      title: t('columns.fileSize'),
      render: (v: number) => formatBytes(v),
    },
    {
      key: 'format',
      dataIndex: 'format',
      title: t('columns.format'),
      render: (_: string, row) => t(uploadFormatKey(row)),
    },
    {
      key: 'uploadedOn',
      dataIndex: 'uploadedOn',
      title: t('columns.uploadedOn'),
      sorter: true,
      sortOrder: sortOrder('uploadedOn'),
      render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
    },
    { key: 'state', title: t('columns.state'), render: (_: unknown, row) => <UploadStateCell row={row} /> },
    {
      key: 'species',
      title: t('columns.species'),
      render: (_: unknown, row) =>
        row.properties ? (
          <Space orientation="vertical" size={0} data-testid="upload-properties">
            <Typography.Text>{row.properties.species ?? t('uploads.unknownSpecies')}</Typography.Text>
            {row.properties.ensemblRelease !== null && (
              <Typography.Text type="secondary">
                {t('uploads.ensembl', {
                  release: row.properties.ensemblRelease,
                  overlap: row.properties.overlapPercent,
                })}
              </Typography.Text>
            )}
            <Typography.Text type="secondary">
              {t('uploads.cellsGenes', {
                cells: row.properties.cells.toLocaleString(),
                genes: row.properties.genes.toLocaleString(),
              })}
            </Typography.Text>
            {(row.properties.valueKind ?? (row.properties.nonInteger ? 'nonIntegerCounts' : 'counts')) !==
              'counts' && (
              <Typography.Text type="secondary" data-testid="upload-value-kind">
                {t(`uploads.valueKinds.${row.properties.valueKind ?? 'nonIntegerCounts'}`)}
              </Typography.Text>
            )}
          </Space>
        ) : null,
    },
    {
      key: 'actions',
      title: t('columns.actions'),
      render: (_: unknown, row) => (
        <Space>
          <Button size="small" type="link" onClick={() => setRenaming(row)}>
            {t('uploads.rename')}
          </Button>
          <Popconfirm
            title={t('uploads.deleteConfirm', { name: row.fileName })}
            okText={t('uploads.delete')}
            onConfirm={() => del.mutateAsync(row.id)}
          >
            <Button size="small" type="link" danger>
              {t('uploads.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <>
      <Input.Search
        allowClear
        placeholder={t('uploads.search')}
        style={{ maxWidth: 320, marginBottom: 12 }}
        onSearch={(search) => setQ((p) => ({ ...p, search: search || undefined, pageNum: 1 }))}
        data-testid="uploads-search"
      />
      <Table<UploadRow>
        data-testid="uploaded-files"
        size="middle"
        rowKey="id"
        loading={isFetching && !data}
        dataSource={data?.rows ?? []}
        columns={columns}
        scroll={{ x: true }}
        pagination={{
          current: q.pageNum,
          pageSize: q.pageSize,
          total: data?.total ?? 0,
          showSizeChanger: true,
        }}
        onChange={(p, _f, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          const field = s?.order ? (s.columnKey as UploadsQuery['sortBy']) : 'uploadedOn';
          setQ((prev) => ({
            ...prev,
            pageNum: p.current ?? 1,
            pageSize: p.pageSize ?? 10,
            sortBy: field,
            order: s?.order === 'ascend' ? 'asc' : 'desc',
          }));
        }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                <Space orientation="vertical">
                  <Typography.Text>{t('uploads.empty')}</Typography.Text>
                  <Button type="primary" onClick={() => navigate('/importdata')}>
                    {t('uploads.import')}
                  </Button>
                </Space>
              }
            />
          ),
        }}
      />
      <RenameDialog row={renaming} onClose={() => setRenaming(null)} />
    </>
  );
}
