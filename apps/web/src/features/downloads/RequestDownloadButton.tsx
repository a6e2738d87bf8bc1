import { App, Button, Dropdown } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { downloadKinds, type DownloadKind } from '@cellcloud/contracts/downloads';
import { useRequestDownload } from '../../api/downloads';

/**
 * "Request download" of a result (docs/product/permissions.md#downloads: result files need a request and approval): the
 * .h5ad for scanpy, the Seurat bundle or the marker table. Plans with "download free file" are
 * approved at once; the file then appears under Requested Downloads.
 */
export function RequestDownloadButton({ datasetId }: { datasetId: string }) {
  const { t } = useTranslation('downloads');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const req = useRequestDownload();
  const ask = (kind: DownloadKind) =>
    req.mutate(
      { datasetId, kind },
      {
        onSuccess: (v) => {
          void message.success({
            content: t(v.status === 'approved' ? 'request.approved' : 'request.pending', {
              name: v.fileName,
            }),
            onClick: () =>
              navigate(`/requestedDownloads?tab=${v.status === 'approved' ? 'active' : 'requested'}`),
          });
        },
      },
    );
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: downloadKinds.map((k) => ({
          key: k,
          label: t(`kinds.${k}`),
          'data-testid': `request-download-${k}`,
        })),
        onClick: ({ key }) => ask(key as DownloadKind),
      }}
    >
      <Button icon={<DownloadOutlined />} loading={req.isPending} data-testid="request-download">
        {t('request.button')}
      </Button>
    </Dropdown>
  );
}
