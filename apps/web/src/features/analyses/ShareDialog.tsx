import { Alert, Button, Input, Modal, Popconfirm, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ShareRole } from '@cellcloud/contracts/sharing';
import { useShareAction, useShares } from '../../api/sharing';

interface Props {
  datasetId: string;
  jobName: string;
  open: boolean;
  onClose: () => void;
}

/**
 * The owner's share dialog (issue 35, docs/product/sharing.md): share an analysis with another
 * user by user name or e-mail as viewer or editor, change a role, revoke a share (effective on the
 * user's next request). Server messages (unknown user, already shared) are shown inline.
 */
export function ShareDialog({ datasetId, jobName, open, onClose }: Props) {
  const { t } = useTranslation('analyses');
  const shares = useShares(datasetId, open);
  const action = useShareAction(datasetId);
  const [user, setUser] = useState('');
  const [role, setRole] = useState<ShareRole>('viewer');
  const [error, setError] = useState<string | null>(null);
  const roles = (['viewer', 'editor'] as const).map((r) => ({ value: r, label: t(`shared.roles.${r}`) }));
  const run = async (a: Parameters<typeof action.mutateAsync>[0]) => {
    setError(null);
    try {
      await action.mutateAsync(a);
      if (a.kind === 'add') setUser('');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width={640}
      title={t('share.title', { name: jobName })}
    >
      <Space orientation="vertical" style={{ width: '100%' }} data-testid="share-dialog">
        <Typography.Text type="secondary">{t('share.help')}</Typography.Text>
        <Space wrap>
          <Input
            style={{ width: 260 }}
            data-testid="share-user"
            placeholder={t('share.userPlaceholder')}
            value={user}
            onChange={(e) => setUser(e.target.value)}
          />
          <Select
            data-testid="share-role"
            style={{ width: 120 }}
            value={role}
            onChange={setRole}
            options={roles}
          />
          <Button
            type="primary"
            data-testid="share-add"
            disabled={!user.trim()}
            loading={action.isPending}
            onClick={() => void run({ kind: 'add', user: user.trim(), role })}
          >
            {t('share.add')}
          </Button>
        </Space>
        {error && <Alert type="error" showIcon message={error} data-testid="share-error" />}
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          loading={shares.isLoading}
          dataSource={shares.data ?? []}
          locale={{ emptyText: t('share.none') }}
          columns={[
            { key: 'user', title: t('share.user'), render: (_, s) => `${s.user.username} (${s.user.email})` },
            {
              key: 'role',
              title: t('shared.role'),
              render: (_, s) => (
                <Select
                  size="small"
                  data-testid={`share-role-${s.user.username}`}
                  style={{ width: 110 }}
                  value={s.role}
                  options={roles}
                  onChange={(r: ShareRole) => void run({ kind: 'role', shareId: s.id, role: r })}
                />
              ),
            },
            {
              key: 'revoke',
              title: t('columns.action'),
              render: (_, s) => (
                <Popconfirm
                  title={t('share.revokeConfirm', { user: s.user.username })}
                  onConfirm={() => void run({ kind: 'revoke', shareId: s.id })}
                >
                  <Button size="small" danger data-testid={`share-revoke-${s.user.username}`}>
                    {t('share.revoke')}
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      </Space>
    </Modal>
  );
}

/** The "Share" action of an analysis row (owner's lists in My Analyses). */
export function ShareButton({ datasetId, jobName }: { datasetId: string; jobName: string }) {
  const { t } = useTranslation('analyses');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" data-testid={`job-share-${datasetId}`} onClick={() => setOpen(true)}>
        {t('share.button')}
      </Button>
      {open && <ShareDialog datasetId={datasetId} jobName={jobName} open onClose={() => setOpen(false)} />}
    </>
  );
}
