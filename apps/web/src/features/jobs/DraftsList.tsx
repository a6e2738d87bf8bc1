import { Button, List, Popconfirm, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { deleteDraft, useDrafts } from '../../api/wizard';

/** Saved wizard drafts: continue at their step, or delete. Nothing when there are none. */
export function DraftsList() {
  const { t } = useTranslation('jobs');
  const navigate = useNavigate();
  const qc = useQueryClient();
  const drafts = useDrafts();
  if (!drafts.data?.length) return null;
  return (
    <List
      data-testid="drafts-list"
      size="small"
      header={<Typography.Text strong>{t('drafts.title')}</Typography.Text>}
      style={{ marginBottom: 16 }}
      dataSource={drafts.data}
      renderItem={(d) => (
        <List.Item
          actions={[
            <Button
              key="go"
              size="small"
              type="link"
              onClick={() => navigate(`/integrateLocalData?draftId=${d.id}`)}
            >
              {t('drafts.continue')}
            </Button>,
            <Popconfirm
              key="del"
              title={t('drafts.deleteConfirm')}
              onConfirm={() =>
                void deleteDraft(d.id).then(() => qc.invalidateQueries({ queryKey: ['wizard', 'drafts'] }))
              }
            >
              <Button size="small" type="link" danger>
                {t('actions.delete')}
              </Button>
            </Popconfirm>,
          ]}
        >
          <Space>
            <Typography.Text>{d.jobName || t('drafts.untitled')}</Typography.Text>
            <Typography.Text type="secondary">{t('drafts.step', { step: d.stepTag })}</Typography.Text>
            <Typography.Text type="secondary">
              {dayjs(d.updatedAt).format('YYYY-MM-DD HH:mm')}
            </Typography.Text>
          </Space>
        </List.Item>
      )}
    />
  );
}
