import { useState } from 'react';
import { Button, Input, Popconfirm, Select, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { AdminUserView } from '@cellcloud/contracts/admin';
import { useAdminPlans, useAdminUsers, useAssignPlan, useSetUserDisabled } from '../../api/admin';
import { formatBytes } from '../files/format';

/** Users: search, disable / enable, assign plan, storage used, last login. */
export function AdminUsersTab() {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const users = useAdminUsers(search);
  const plans = useAdminPlans();
  const setDisabled = useSetUserDisabled();
  const assign = useAssignPlan();
  return (
    <>
      <Input.Search
        allowClear
        data-testid="admin-user-search"
        placeholder={t('users.search')}
        onSearch={(v) => setSearch(v.trim())}
        style={{ maxWidth: 360, marginBottom: 12 }}
      />
      <Table<AdminUserView>
        scroll={{ x: 'max-content' }}
        size="small"
        rowKey="id"
        data-testid="admin-users"
        loading={users.isLoading}
        dataSource={users.data ?? []}
        locale={{ emptyText: t('users.empty') }}
        columns={[
          { key: 'username', title: t('users.username'), dataIndex: 'username' },
          { key: 'email', title: t('users.email'), dataIndex: 'email' },
          {
            key: 'plan',
            title: t('users.plan'),
            render: (_, u) => (
              <Select
                size="small"
                style={{ minWidth: 160 }}
                value={u.planId ?? undefined}
                options={(plans.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
                onChange={(planId: string) => assign.mutate({ id: u.id, planId })}
              />
            ),
          },
          { key: 'storage', title: t('users.storage'), render: (_, u) => formatBytes(u.storageBytes) },
          {
            key: 'lastLogin',
            title: t('users.lastLogin'),
            render: (_, u) =>
              u.lastLoginAt ? dayjs(u.lastLoginAt).format('YYYY-MM-DD HH:mm') : t('users.never'),
          },
          {
            key: 'status',
            title: t('users.status'),
            render: (_, u) => (
              <>
                <Tag color={u.disabled ? 'red' : 'green'}>
                  {u.disabled ? t('users.disabled') : t('users.active')}
                </Tag>
                {u.isAdmin ? <Tag color="blue">{t('users.admin')}</Tag> : null}
              </>
            ),
          },
          {
            key: 'action',
            title: t('users.action'),
            render: (_, u) =>
              u.disabled ? (
                <Button
                  size="small"
                  data-testid="admin-enable"
                  onClick={() => setDisabled.mutate({ id: u.id, disabled: false })}
                >
                  {t('users.enable')}
                </Button>
              ) : (
                <Popconfirm
                  title={t('users.disableConfirm', { name: u.username })}
                  okText={t('users.disable')}
                  cancelText={t('cancel')}
                  okButtonProps={{ danger: true, ...{ 'data-testid': 'admin-disable-ok' } }}
                  onConfirm={() => setDisabled.mutateAsync({ id: u.id, disabled: true })}
                >
                  <Button size="small" danger data-testid="admin-disable">
                    {t('users.disable')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </>
  );
}
