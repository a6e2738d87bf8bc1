import { Button, Card, Col, Empty, Row, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { VIDEOS_API } from '@cellcloud/contracts/admin-content';
import { useVideos } from '../../api/admin-content';
import { QueryState } from '../../shared/QueryState';
import { useBilingual } from '../../shared/useBilingual';

/**
 * /tutorialVideos: the videos an administrator uploaded, in their order, with the title in the
 * current language; the browser streams each with HTTP Range requests (seeking loads only the
 * part needed). Without any video the page points to the written guidebook.
 */
export default function TutorialVideosPage() {
  const { t } = useTranslation('resource');
  const navigate = useNavigate();
  const pick = useBilingual();
  const videos = useVideos();
  return (
    <>
      <Typography.Title level={2}>{t('videos.title')}</Typography.Title>
      <QueryState
        isPending={videos.isPending}
        isError={videos.isError}
        isEmpty={false}
        emptyText=""
        onRetry={() => void videos.refetch()}
      >
        {(videos.data ?? []).length === 0 ? (
          <Empty description={t('videos.empty')}>
            <Button type="primary" onClick={() => navigate('/guidebook')}>
              {t('videos.toGuidebook')}
            </Button>
          </Empty>
        ) : (
          <Row gutter={[16, 16]} data-testid="tutorial-videos">
            {(videos.data ?? []).map((v) => (
              <Col key={v.id} xs={24} lg={12}>
                <Card size="small" title={pick(v.title)} data-testid="tutorial-video">
                  <video
                    controls
                    preload="metadata"
                    src={VIDEOS_API.file(v.id)}
                    style={{ width: '100%', background: '#000' }}
                  />
                </Card>
              </Col>
            ))}
          </Row>
        )}
      </QueryState>
    </>
  );
}
