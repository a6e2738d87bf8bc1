import { Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { LoginLogRow } from '@cellcloud/contracts/account';
import { useLoginLog } from '../../api/account';

/** The last 10 logins (docs/product/limits.md#interface-constants), newest first. */
export function LoginLogTable() {
  const { t } = useTranslation('account');
  const log = useLoginLog();
  return (
    <Table<LoginLogRow>
      size="small"
      rowKey={(r) => `${r.loginAt}-${r.ip}`}
      loading={log.isPending}
      dataSource={log.data ?? []}
      pagination={false}
      scroll={{ x: true }}
      columns={[
        {
          title: t('loginLog.time'),
          dataIndex: 'loginAt',
          render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss'),
        },
        { title: t('loginLog.ip'), dataIndex: 'ip' },
        { title: t('loginLog.browser'), dataIndex: 'userAgent', ellipsis: true },
        {
          title: t('loginLog.result'),
          dataIndex: 'success',
          render: (ok: boolean) =>
            ok ? <Tag color="green">{t('loginLog.ok')}</Tag> : <Tag color="red">{t('loginLog.failed')}</Tag>,
        },
      ]}
    />
  );
}
