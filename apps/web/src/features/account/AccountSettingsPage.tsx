import { Button, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { useAccountInfo } from '../../api/account';
import { PageSpinner } from '../../shared/PageSpinner';
import { ChangeEmailForm } from './ChangeEmailForm';
import { ChangePasswordForm } from './ChangePasswordForm';
import { LoginLogTable } from './LoginLogTable';

/** /accountsettings: renew subscription, security settings, change e-mail, change password, login log. */
export default function AccountSettingsPage() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const info = useAccountInfo();
  if (!info.data) return <PageSpinner />;
  const { user } = info.data;
  const until = user.subscriptionUntil ? dayjs(user.subscriptionUntil) : null;
  const active = until !== null && until.isAfter(dayjs());

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Title level={2}>{t('title')}</Typography.Title>
      <Card title={t('renew.title')}>
        <Space wrap>
          {active ? (
            <Tag color="green">{t('renew.activeUntil', { date: until.format('YYYY-MM-DD') })}</Tag>
          ) : (
            <Tag>{t('renew.free')}</Tag>
          )}
          <Typography.Text type="secondary">{t('renew.body')}</Typography.Text>
          <Button type="primary" onClick={() => navigate('/contact')}>
            {t('renew.action')}
          </Button>
        </Space>
      </Card>
      <Card title={t('security.title')}>
        <Descriptions column={{ xs: 1, md: 2 }} size="small">
          <Descriptions.Item label={t('security.username')}>{user.username}</Descriptions.Item>
          <Descriptions.Item
            label={t('security.name')}
          >{`${user.firstName} ${user.lastName}`}</Descriptions.Item>
          <Descriptions.Item label={t('security.email')}>{user.email}</Descriptions.Item>
          <Descriptions.Item label={t('security.phone')}>{user.phone || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('security.institution')}>{user.institution}</Descriptions.Item>
          <Descriptions.Item label={t('security.memberSince')}>
            {dayjs(user.createdAt).format('YYYY-MM-DD')}
          </Descriptions.Item>
        </Descriptions>
        <Typography.Text type="secondary">{t('security.usernameFixed')}</Typography.Text>
      </Card>
      <Card title={t('changeEmail.title')}>
        <ChangeEmailForm />
      </Card>
      <Card title={t('changePassword.title')}>
        <ChangePasswordForm />
      </Card>
      <Card title={t('loginLog.title')}>
        <LoginLogTable />
      </Card>
    </Space>
  );
}
