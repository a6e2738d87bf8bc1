import { useRef, useState } from 'react';
import { Button, Progress, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { UploadRow } from '@cellcloud/contracts/files';
import { filesKeys, sendFile } from '../../api/files';

/**
 * For an upload left unfinished (page closed, browser restarted): choose the same files again
 * and tus continues each from the offset the server kept.
 */
export function ResumeUpload({ row }: { row: UploadRow }) {
  const { t } = useTranslation('files');
  const qc = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [sent, setSent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const missing = row.files.filter((f) => !f.complete);
  const total = missing.reduce((s, f) => s + f.size, 0);

  const resume = async (chosen: File[]) => {
    setError(null);
    const pairs = missing.map((f) => ({
      f,
      file: chosen.find((c) => c.name === f.name.split('/').pop() && c.size === f.size),
    }));
    const absent = pairs.filter((p) => !p.file).map((p) => p.f.name);
    if (absent.length) {
      setError(t('uploads.resumeMissing', { names: absent.join(', ') }));
      return;
    }
    let before = 0;
    setSent(0);
    try {
      for (const { f, file } of pairs) {
        await sendFile(f.slot, file!, (n) => setSent(before + n), { resume: true });
        before += f.size;
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSent(null);
      await qc.invalidateQueries({ queryKey: filesKeys.all });
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        onChange={(e) => void resume([...(e.target.files ?? [])])}
      />
      {sent === null ? (
        <Button size="small" onClick={() => input.current?.click()}>
          {t('uploads.resume')}
        </Button>
      ) : (
        <Progress percent={total ? Math.floor((100 * sent) / total) : 100} size="small" status="active" />
      )}
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
    </>
  );
}
