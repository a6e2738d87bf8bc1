import { Input } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePublicAccess } from './usePublicAccess';

/** The home page search of the public database (docs/product/permissions.md#display-switches display switch "home searches"). */
export function HomeSearch() {
  const { t } = useTranslation('publicdb');
  const navigate = useNavigate();
  if (!usePublicAccess().homeSearch) return null;
  return (
    <Input.Search
      data-testid="home-public-search"
      size="large"
      allowClear
      enterButton={t('search')}
      placeholder={t('home.placeholder')}
      aria-label={t('home.label')}
      style={{ maxWidth: 640, margin: '0 auto 24px', display: 'flex' }}
      onSearch={(v) => navigate(`/publicDatabase${v.trim() ? `?q=${encodeURIComponent(v.trim())}` : ''}`)}
    />
  );
}
