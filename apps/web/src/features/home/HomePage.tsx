import { Button, Card, Col, Row, Space, Typography } from 'antd';
import {
  CloudUploadOutlined,
  ClusterOutlined,
  DotChartOutlined,
  ExperimentOutlined,
} from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { PublicLayout } from '../../shared/PublicLayout';
import { HomeSearch } from '../publicdb/HomeSearch';

const FEATURES = [
  { key: 'import', icon: <CloudUploadOutlined /> },
  { key: 'integrate', icon: <ClusterOutlined /> },
  { key: 'analyse', icon: <ExperimentOutlined /> },
  { key: 'explore', icon: <DotChartOutlined /> },
] as const;

/** `/`: the production home (no footer, docs/product/screens.md#public-routes). */
export default function HomePage() {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const session = useSession();
  return (
    <PublicLayout footer={false}>
      <div style={{ maxWidth: 1080, width: '100%' }}>
        <div style={{ textAlign: 'center', padding: '48px 0 32px' }}>
          <Typography.Title>{t('hero.title')}</Typography.Title>
          <Typography.Paragraph style={{ fontSize: 17, maxWidth: 720, margin: '0 auto 24px' }}>
            {t('hero.body')}
          </Typography.Paragraph>
          {session && <HomeSearch />}
          <Space wrap>
            {session ? (
              <Button type="primary" size="large" onClick={() => navigate('/my_analyzes')}>
                {t('hero.open')}
              </Button>
            ) : (
              <>
                <Button
                  type="primary"
                  size="large"
                  onClick={() => navigate('/login')}
                  data-testid="home-login"
                >
                  {t('hero.login')}
                </Button>
                <Button size="large" onClick={() => navigate('/signup')}>
                  {t('hero.signUp')}
                </Button>
              </>
            )}
          </Space>
        </div>
        <Row gutter={[16, 16]}>
          {FEATURES.map((f) => (
            <Col xs={24} sm={12} lg={6} key={f.key}>
              <Card style={{ height: '100%' }}>
                <div style={{ fontSize: 28, color: '#1677ff' }}>{f.icon}</div>
                <Typography.Title level={4}>{t(`features.${f.key}.title`)}</Typography.Title>
                <Typography.Paragraph type="secondary">{t(`features.${f.key}.body`)}</Typography.Paragraph>
              </Card>
            </Col>
          ))}
        </Row>
      </div>
    </PublicLayout>
  );
}
