import { useRef, useState } from 'react';
import { Alert, Button, Form, Input, Popconfirm, Progress, Space, Table, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { VIDEO_MAX_BYTES, videoTypes, type VideoView } from '@cellcloud/contracts/admin-content';
import {
  uploadVideoFile,
  useDeleteVideo,
  useReorderVideos,
  useUpdateVideo,
  useVideos,
} from '../../api/admin-content';
import { formatBytes } from '../files/format';
import { MoveButtons } from './MoveButtons';

interface Fields {
  titleEn: string;
  titleZh: string;
}

/**
 * Tutorial videos: upload an MP4 or WebM file with titles in both languages (streamed to the
 * server with progress; the server checks type and size), rename, reorder, delete.
 */
export function AdminVideosPanel() {
  const { t } = useTranslation('content');
  const qc = useQueryClient();
  const videos = useVideos();
  const update = useUpdateVideo();
  const del = useDeleteVideo();
  const reorder = useReorderVideos();
  const [form] = Form.useForm<Fields>();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const items = videos.data ?? [];

  const upload = async (f: Fields) => {
    setError(null);
    if (!file) return setError(t('videos.chooseFile'));
    if (!(videoTypes as readonly string[]).includes(file.type)) return setError(t('videos.badType'));
    if (file.size > VIDEO_MAX_BYTES)
      return setError(t('videos.tooLarge', { size: formatBytes(VIDEO_MAX_BYTES) }));
    setProgress(0);
    try {
      await uploadVideoFile(file, { 'en-US': f.titleEn, 'zh-CN': f.titleZh }, setProgress);
      form.resetFields();
      setFile(null);
      if (fileRef.current) fileRef.current.value = '';
      await Promise.all([
        qc.invalidateQueries({ queryKey: ['content', 'videos'] }),
        qc.invalidateQueries({ queryKey: ['admin'] }),
      ]);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setProgress(null);
    }
  };
  const rename = (v: VideoView, locale: 'en-US' | 'zh-CN', text: string) => {
    if (text.trim() && text !== v.title[locale])
      update.mutate({ id: v.id, title: { ...v.title, [locale]: text } });
  };

  return (
    <>
      <Form<Fields>
        form={form}
        layout="inline"
        onFinish={(f) => void upload(f)}
        style={{ marginBottom: 12, rowGap: 8 }}
      >
        <Form.Item
          name="titleEn"
          label={t('titleEn')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        >
          <Input data-testid="video-title-en" />
        </Form.Item>
        <Form.Item
          name="titleZh"
          label={t('titleZh')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        >
          <Input data-testid="video-title-zh" />
        </Form.Item>
        <Form.Item label={t('videos.file')}>
          <input
            ref={fileRef}
            type="file"
            data-testid="video-file"
            accept={videoTypes.join(',')}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" data-testid="video-upload" loading={progress !== null}>
            {t('videos.upload')}
          </Button>
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary">
        {t('videos.hint', { size: formatBytes(VIDEO_MAX_BYTES) })}
      </Typography.Paragraph>
      {progress !== null && <Progress percent={Math.round(progress * 100)} data-testid="video-progress" />}
      {error && (
        <Alert type="error" showIcon message={error} data-testid="video-error" style={{ marginBottom: 12 }} />
      )}
      <Table<VideoView>
        scroll={{ x: 'max-content' }}
        size="small"
        rowKey="id"
        data-testid="admin-videos"
        loading={videos.isLoading}
        dataSource={items}
        pagination={false}
        locale={{ emptyText: t('videos.none') }}
        columns={[
          {
            key: 'en',
            title: t('titleEn'),
            render: (_, v) => (
              <Typography.Text editable={{ onChange: (s) => rename(v, 'en-US', s) }}>
                {v.title['en-US']}
              </Typography.Text>
            ),
          },
          {
            key: 'zh',
            title: t('titleZh'),
            render: (_, v) => (
              <Typography.Text editable={{ onChange: (s) => rename(v, 'zh-CN', s) }}>
                {v.title['zh-CN']}
              </Typography.Text>
            ),
          },
          {
            key: 'type',
            title: t('videos.type'),
            render: (_, v) => v.mime.replace('video/', '').toUpperCase(),
          },
          { key: 'size', title: t('videos.size'), render: (_, v) => formatBytes(v.size) },
          {
            key: 'actions',
            title: t('actions'),
            render: (_, v) => (
              <Space size={4}>
                <MoveButtons
                  ids={items.map((y) => y.id)}
                  id={v.id}
                  busy={reorder.isPending}
                  onOrder={(ids) => reorder.mutate(ids)}
                />
                <Popconfirm title={t('videos.deleteConfirm')} onConfirm={() => del.mutate(v.id)}>
                  <Button size="small" danger>
                    {t('delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}
