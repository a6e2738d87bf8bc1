import { Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** My Analyses: "show only integrated SynEcoSys datasets" (shown when the plan's display switch is on). */
export function SynEcoSysOnlySwitch({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  const { t } = useTranslation('publicdb');
  return (
    <Space style={{ marginBottom: 12 }}>
      <Switch
        data-testid="synecosys-only"
        checked={checked}
        onChange={onChange}
        aria-label={t('onlyIntegrated')}
      />
      <Typography.Text>{t('onlyIntegrated')}</Typography.Text>
    </Space>
  );
}
