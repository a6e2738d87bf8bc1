import { Button, Empty, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/**
 * /tutorialVideos. No videos are published with this release; the page says so and points to
 * the written guidebook, which covers the same workflows.
 */
export default function TutorialVideosPage() {
  const { t } = useTranslation('resource');
  const navigate = useNavigate();
  return (
    <>
      <Typography.Title level={2}>{t('videos.title')}</Typography.Title>
      <Empty description={t('videos.empty')}>
        <Button type="primary" onClick={() => navigate('/guidebook')}>
          {t('videos.toGuidebook')}
        </Button>
      </Empty>
    </>
  );
}
