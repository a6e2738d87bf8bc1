import { Card, InputNumber, Select, Space, Switch, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DisplaySwitches } from '@cellcloud/contracts';
import type { AdminPlanView } from '@cellcloud/contracts/admin';
import { useAdminPlans, useUpdatePlan } from '../../api/admin';

const GIB = 1024 ** 3;
const BOOL_SWITCHES = [
  'canonicalMarkers',
  'homeSearches',
  'multipleCompare',
  'onlyIntegratedSynEcoSysDatasets',
] as const;

/** Plans: per plan the privileges' disabled / hidden flags, display switches and storage quota. */
export function AdminPlansTab() {
  const { t } = useTranslation(['admin', 'menu']);
  const plans = useAdminPlans();
  const update = useUpdatePlan();
  const setSwitches = (p: AdminPlanView, patch: Partial<DisplaySwitches>) =>
    update.mutate({ id: p.id, body: { switches: { ...p.switches, ...patch } } });
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="admin-plans">
      {(plans.data ?? []).map((p) => (
        <Card
          key={p.id}
          size="small"
          title={`${p.name} (${p.id})${p.isDefault ? ` — ${t('admin:plans.default')}` : ''}`}
          extra={t('admin:plans.userCount', { count: p.users })}
        >
          <Space wrap style={{ marginBottom: 12 }}>
            <Typography.Text>{t('admin:plans.quota')}</Typography.Text>
            <InputNumber
              min={0}
              addonAfter="GiB"
              placeholder={t('admin:plans.instanceDefault')}
              value={p.quotaBytes === null ? null : Math.round(p.quotaBytes / GIB)}
              onBlur={(e) => {
                const v = e.target.value.trim();
                const bytes = v === '' ? null : Math.max(0, Math.round(Number(v))) * GIB;
                if (bytes !== p.quotaBytes && !Number.isNaN(bytes))
                  update.mutate({ id: p.id, body: { quotaBytes: bytes } });
              }}
            />
            {BOOL_SWITCHES.map((k) => (
              <span key={k}>
                <Switch size="small" checked={p.switches[k]} onChange={(v) => setSwitches(p, { [k]: v })} />{' '}
                {t(`admin:plans.switches.${k}`)}
              </span>
            ))}
            <span>
              {t('admin:plans.switches.docType')}{' '}
              <Select
                size="small"
                value={p.switches.docType}
                options={[
                  { value: 'global', label: t('admin:plans.docType.global') },
                  { value: 'CN', label: t('admin:plans.docType.CN') },
                ]}
                onChange={(v: 'CN' | 'global') => setSwitches(p, { docType: v })}
              />
            </span>
          </Space>
          <Table
            scroll={{ x: 'max-content' }}
            size="small"
            rowKey="permission"
            pagination={false}
            dataSource={p.grants}
            columns={[
              { key: 'name', title: t('admin:plans.privilege'), render: (_, g) => t(`menu:${g.permission}`) },
              {
                key: 'type',
                title: t('admin:plans.type'),
                render: (_, g) => (g.type === 1 ? t('admin:plans.menu') : t('admin:plans.operation')),
              },
              ...(['disabled', 'hidden'] as const).map((flag) => ({
                key: flag,
                title: t(`admin:plans.${flag}`),
                render: (_: unknown, g: AdminPlanView['grants'][number]) => (
                  <Switch
                    size="small"
                    checked={g[flag]}
                    data-testid={`plan-${p.id}-${g.permission}-${flag}`}
                    onChange={(v) =>
                      update.mutate({
                        id: p.id,
                        body: {
                          grants: [
                            { permission: g.permission, disabled: g.disabled, hidden: g.hidden, [flag]: v },
                          ],
                        },
                      })
                    }
                  />
                ),
              })),
            ]}
          />
        </Card>
      ))}
    </Space>
  );
}
