import { useEffect, useMemo, useRef, useState } from 'react';
import './excalidraw-asset-path'; // before Excalidraw: its fonts are self-hosted
import { Excalidraw } from '@excalidraw/excalidraw';
import '@excalidraw/excalidraw/index.css';
import { Button, Tag, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useDrawing, useSaveDrawing } from '../../api/drawings';
import { PageSpinner } from '../../shared/PageSpinner';
import { toDrawingSave, type SceneParts } from './scene';

const SAVE_DELAY_MS = 1500;

/** Excalidraw beside a small side panel; the scene autosaves to GET/PUT /api/user/drawings/app1. */
export default function Whiteboard() {
  const { t, i18n } = useTranslation('tools');
  const navigate = useNavigate();
  const drawing = useDrawing('app1');
  const save = useSaveDrawing('app1');
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const lastJson = useRef<string>('');

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const initialData = useMemo(() => {
    if (!drawing.data) return null;
    lastJson.current = JSON.stringify(drawing.data.elements);
    return {
      elements: drawing.data.elements,
      appState: { ...drawing.data.appState, collaborators: new Map() },
      files: drawing.data.files,
    } as never;
  }, [drawing.data]);

  if (drawing.isPending) return <PageSpinner />;

  const onChange = (...parts: SceneParts) => {
    const body = toDrawingSave(...parts);
    const json = JSON.stringify(body.elements);
    if (json === lastJson.current) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      lastJson.current = json;
      save.mutate(body, { onSuccess: (d) => setSavedAt(d.updatedAt) });
    }, SAVE_DELAY_MS);
  };

  return (
    <div style={{ display: 'flex', flex: 1 }}>
      <aside
        style={{ width: 200, padding: 16, borderRight: '1px solid #e5e7eb', background: '#fff' }}
        className="cc-hide-mobile"
      >
        <Typography.Title level={5}>{t('title')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
        <div data-testid="drawing-status">
          {save.isPending ? (
            <Tag color="processing">{t('saving')}</Tag>
          ) : save.isError ? (
            <Tag color="error">{t('saveFailed')}</Tag>
          ) : savedAt || drawing.data?.updatedAt ? (
            <Tag color="success">{t('saved')}</Tag>
          ) : (
            <Tag>{t('notSaved')}</Tag>
          )}
        </div>
        <Button
          type="link"
          icon={<ArrowLeftOutlined />}
          onClick={() => navigate('/my_analyzes')}
          style={{ paddingLeft: 0 }}
        >
          {t('back')}
        </Button>
      </aside>
      <div style={{ flex: 1, position: 'relative' }} data-testid="whiteboard">
        <Excalidraw
          initialData={initialData}
          onChange={onChange}
          langCode={i18n.language === 'zh-CN' ? 'zh-CN' : 'en'}
        />
      </div>
    </div>
  );
}
