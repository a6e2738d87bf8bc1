import { useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Descriptions, Form, Input, Progress, Space, Steps, Tag, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PublicIngestCheck } from '@cellcloud/contracts/admin-public-ingest';
import { jobStepKey } from '../jobs/jobStepKey';
import { checkPublicIngest, uploadIngestFiles, usePublicIngestStatus } from '../../api/admin-public-ingest';

const key = (files: File[]) => files.map((f) => `${f.name}:${f.size}:${f.lastModified}`).join('|');

/**
 * Public database (issue 31): ingest a public dataset while the server runs — the dataset file(s)
 * and an optional cells table through the resumable upload, the metadata sheet (README "metadata
 * sheet") as a file or pasted text; Validate lists every problem, Start queues the ingest and the
 * view follows its steps until the dataset is in the public database.
 */
export function AdminPublicIngestTab() {
  const { t } = useTranslation('admin');
  const [data, setData] = useState<File[]>([]);
  const [cells, setCells] = useState<File | undefined>();
  const [sheet, setSheet] = useState('');
  const [uploaded, setUploaded] = useState<{ key: string; id: string } | null>(null);
  const [sent, setSent] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [check, setCheck] = useState<PublicIngestCheck | null>(null);
  const [ingestId, setIngestId] = useState<string | null>(null);
  const status = usePublicIngestStatus(ingestId);

  const run = async (validateOnly: boolean) => {
    setBusy(true);
    setFailure(null);
    setCheck(null);
    try {
      const k = key(cells ? [...data, cells] : data);
      let id = uploaded?.key === k ? uploaded.id : null;
      if (!id) {
        setSent(0);
        id = await uploadIngestFiles(data, cells, setSent);
        setUploaded({ key: k, id });
      }
      const r = await checkPublicIngest({ uploadId: id, sheet, validateOnly });
      setCheck(r);
      if (r.ingest) {
        setIngestId(r.ingest.ingestId);
        setUploaded(null); // the server deletes the upload once the ingest is queued
      }
    } catch (e) {
      setFailure((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (ingestId)
    return (
      <IngestProgress
        status={status.data}
        onAgain={() => {
          setIngestId(null);
          setCheck(null);
        }}
      />
    );
  const ready = data.length > 0 && sheet.trim().length > 0 && !busy;
  return (
    <Form layout="vertical" style={{ maxWidth: 820 }} data-testid="admin-public-ingest">
      <Typography.Paragraph type="secondary">{t('publicIngest.intro')}</Typography.Paragraph>
      <Form.Item label={t('publicIngest.files')} extra={t('publicIngest.filesHelp')} required>
        <FilePicker
          testId="pi-files"
          label={t('publicIngest.files')}
          multiple
          chosen={data.map((f) => f.name)}
          onChange={(files) => setData(files)}
        />
      </Form.Item>
      <Form.Item label={t('publicIngest.cells')} extra={t('publicIngest.cellsHelp')}>
        <FilePicker
          testId="pi-cells"
          label={t('publicIngest.cells')}
          accept=".csv,.tsv,.txt,.gz"
          chosen={cells ? [cells.name] : []}
          onChange={(files) => setCells(files[0])}
        />
      </Form.Item>
      <Form.Item label={t('publicIngest.sheet')} extra={t('publicIngest.sheetHelp')} required>
        <Space direction="vertical" style={{ width: '100%' }}>
          <FilePicker
            testId="pi-sheet-file"
            label={t('publicIngest.sheetFile')}
            accept=".yaml,.yml,.json"
            chosen={[]}
            onChange={(files) => void files[0]?.text().then(setSheet)}
          />
          <Input.TextArea
            aria-label={t('publicIngest.sheet')}
            data-testid="pi-sheet"
            rows={8}
            value={sheet}
            placeholder={'id: pbmc3k\ntitle: 3k PBMCs\nlicence: CC-BY-4.0'}
            onChange={(e) => setSheet(e.target.value)}
            style={{ fontFamily: 'monospace' }}
          />
        </Space>
      </Form.Item>
      {sent !== null && busy && (
        <Progress percent={Math.floor(sent * 100)} size="small" status="active" data-testid="pi-upload" />
      )}
      <Space style={{ marginBottom: 16 }}>
        <Button data-testid="pi-validate" disabled={!ready} loading={busy} onClick={() => void run(true)}>
          {t('publicIngest.validate')}
        </Button>
        <Button type="primary" data-testid="pi-start" disabled={!ready} onClick={() => void run(false)}>
          {t('publicIngest.start')}
        </Button>
      </Space>
      {failure && <Alert type="error" showIcon message={failure} />}
      {check && !check.ok && (
        <Alert
          type="error"
          showIcon
          data-testid="pi-problems"
          message={t('publicIngest.problems', { count: check.problems.length })}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {check.problems.map((p, i) => (
                <li key={i}>
                  {p.field && <Typography.Text code>{p.field}</Typography.Text>} {p.message}
                </li>
              ))}
            </ul>
          }
        />
      )}
      {check?.ok && (
        <Alert
          type="success"
          showIcon
          data-testid="pi-valid"
          message={t('publicIngest.valid', { id: check.datasetId, cells: check.cells, genes: check.genes })}
          description={check.warnings.length ? check.warnings.join('\n') : undefined}
        />
      )}
    </Form>
  );
}

/** A translated "choose" button over a hidden file input, with the chosen names beside it. */
function FilePicker(p: {
  testId: string;
  label: string;
  accept?: string;
  multiple?: boolean;
  chosen: string[];
  onChange: (files: File[]) => void;
}): ReactNode {
  const { t } = useTranslation('admin');
  const input = useRef<HTMLInputElement>(null);
  return (
    <Space wrap>
      <input
        ref={input}
        type="file"
        hidden
        accept={p.accept}
        multiple={p.multiple}
        aria-label={p.label}
        data-testid={p.testId}
        onChange={(e) => p.onChange(Array.from(e.target.files ?? []))}
      />
      <Button icon={<UploadOutlined />} onClick={() => input.current?.click()}>
        {t('publicIngest.choose')}
      </Button>
      <Typography.Text type="secondary">
        {p.chosen.length ? p.chosen.join(', ') : t('publicIngest.noFile')}
      </Typography.Text>
    </Space>
  );
}

const STAGES = ['queued', 'running', 'completed'] as const;

function IngestProgress({
  status,
  onAgain,
}: {
  status: ReturnType<typeof usePublicIngestStatus>['data'];
  onAgain: () => void;
}) {
  const { t, i18n } = useTranslation(['admin', 'jobs']);
  if (!status) return <Progress percent={0} size="small" />;
  const current = status.status === 'error' ? 1 : STAGES.indexOf(status.status);
  const step = jobStepKey(status.step, (k) => i18n.exists(k));
  const stepText = step ? t(step) : t('publicIngest.working');
  return (
    <Space direction="vertical" style={{ width: '100%', maxWidth: 820 }} data-testid="pi-progress">
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={t('publicIngest.dataset')}>
          {status.datasetId} v{status.version}
        </Descriptions.Item>
        <Descriptions.Item label={t('publicIngest.state')}>
          <Tag
            data-testid="pi-state"
            color={status.status === 'error' ? 'red' : status.status === 'completed' ? 'green' : 'blue'}
          >
            {t(`publicIngest.states.${status.status}`)}
          </Tag>
        </Descriptions.Item>
      </Descriptions>
      <Steps
        size="small"
        current={current}
        status={status.status === 'error' ? 'error' : status.status === 'completed' ? 'finish' : 'process'}
        items={STAGES.map((s) => ({
          title: t(`publicIngest.states.${s}`),
          description: s === 'running' && status.status === 'running' ? stepText : undefined,
        }))}
      />
      <Progress
        percent={Math.floor(status.progress * 100)}
        status={status.status === 'error' ? 'exception' : undefined}
      />
      {status.status === 'error' && (
        <Alert type="error" showIcon message={t('publicIngest.failed')} description={status.message} />
      )}
      {status.status === 'completed' && (
        <Link to={`/publicDatabase?q=${encodeURIComponent(status.datasetId)}`} data-testid="pi-open">
          {t('publicIngest.open', { id: status.datasetId })}
        </Link>
      )}
      <Button onClick={onAgain}>{t('publicIngest.another')}</Button>
    </Space>
  );
}
