import type { ReactNode } from 'react';
import { Empty, Table } from 'antd';

export interface ListColumn {
  key: string;
  title: string;
}

/** A list table with its final columns; `empty` is what a new account sees. */
export function ListTable<T extends { id: string }>({
  columns,
  rows,
  loading,
  empty,
  testId,
}: {
  columns: ListColumn[];
  rows: T[];
  loading?: boolean;
  empty: ReactNode;
  testId?: string;
}) {
  return (
    <Table<T>
      data-testid={testId}
      size="middle"
      rowKey="id"
      loading={loading}
      dataSource={rows}
      scroll={{ x: true }}
      pagination={rows.length > 10 ? { pageSize: 10 } : false}
      columns={columns.map((c) => ({ key: c.key, dataIndex: c.key, title: c.title }))}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
    />
  );
}
