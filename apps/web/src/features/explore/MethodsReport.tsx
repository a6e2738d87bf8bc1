import { Fragment, useState, type ReactNode } from 'react';
import { Button, Drawer, Space, Spin, Typography } from 'antd';
import { FileTextOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError, presentError, request } from '../../api/client';
import { blobFetch } from '../../api/exploreJobs';
import { currentLocale } from '../../i18n';
import { downloadBlob } from './viewer/exportImage';

/** Inline `code` spans of one Markdown line. */
function inline(text: string): ReactNode[] {
  return text.split(/(`[^`]+`)/).map((part, i) =>
    part.startsWith('`') && part.endsWith('`') ? (
      <Typography.Text key={i} code>
        {part.slice(1, -1)}
      </Typography.Text>
    ) : (
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}

/** The small Markdown subset the report uses: #–### headings, "- " and "1. " list items, paragraphs. */
function renderMarkdown(md: string): ReactNode[] {
  return md.split('\n').map((line, i) => {
    const h = /^(#{1,3}) (.*)$/.exec(line);
    if (h)
      return (
        <Typography.Title key={i} level={(h[1]!.length + 2) as 3 | 4 | 5}>
          {inline(h[2]!)}
        </Typography.Title>
      );
    if (line.startsWith('- '))
      return (
        <div key={i} style={{ paddingLeft: 16 }}>
          • {inline(line.slice(2))}
        </div>
      );
    if (/^\d+\. /.test(line))
      return (
        <div key={i} style={{ paddingLeft: 16, fontSize: 12 }}>
          {inline(line)}
        </div>
      );
    if (line.trim() === '') return <div key={i} style={{ height: 8 }} />;
    return (
      <Typography.Paragraph key={i} style={{ marginBottom: 4 }}>
        {inline(line)}
      </Typography.Paragraph>
    );
  });
}

/**
 * "Methods": the methods report of this analysis and its downstream tasks (issue 21), generated
 * by the server from the parameters that ran, in the reader's language; downloadable as Markdown
 * and as a PDF (rendered by the server with the Chinese font embedded).
 */
export function MethodsReport({ datasetId }: { datasetId: string }) {
  const { t, i18n } = useTranslation('explore');
  const [open, setOpen] = useState(false);
  const [pdfBusy, setPdfBusy] = useState(false);
  const downloadPdf = async () => {
    setPdfBusy(true);
    try {
      const lang = currentLocale();
      const res = await blobFetch(
        `/api/user_datasets/${encodeURIComponent(datasetId)}/methods?format=pdf&lang=${lang}`,
      );
      downloadBlob(await res.blob(), `methods-${lang}.pdf`);
    } catch (e) {
      if (e instanceof ApiError) presentError(e);
      else throw e;
    } finally {
      setPdfBusy(false);
    }
  };
  const q = useQuery({
    queryKey: ['methods', datasetId, i18n.language],
    enabled: open,
    queryFn: () =>
      request(`/api/user_datasets/${encodeURIComponent(datasetId)}/methods`, {
        schema: z.object({ markdown: z.string() }),
      }),
  });
  return (
    <>
      <Button icon={<FileTextOutlined />} onClick={() => setOpen(true)} data-testid="methods-report">
        {t('methods.button')}
      </Button>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        width={720}
        title={t('methods.title')}
        data-testid="methods-drawer"
      >
        {q.data ? (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Space>
              <Button
                onClick={() =>
                  downloadBlob(
                    new Blob([q.data.markdown], { type: 'text/markdown' }),
                    `methods-${currentLocale()}.md`,
                  )
                }
                data-testid="methods-download"
              >
                {t('methods.download')}
              </Button>
              <Button loading={pdfBusy} onClick={() => void downloadPdf()} data-testid="methods-download-pdf">
                {t('methods.downloadPdf')}
              </Button>
            </Space>
            <div data-testid="methods-text">{renderMarkdown(q.data.markdown)}</div>
          </Space>
        ) : (
          <Spin />
        )}
      </Drawer>
    </>
  );
}
