import type { Config } from '../../config';
import { registerMessages } from '../../i18n/translate';

/**
 * Progress budget of an upload's parse (issue 34, fair queues): every parse gets
 * INGEST_BUDGET_BASE_SECONDS plus the time its input takes at INGEST_BUDGET_MB_PER_SECOND
 * decompressed, the input assumed to expand up to EXPANSION times (real matrices expand 2–10×:
 * the readers' own limit is 100×, see packages/formats/src/limits.ts). A decompression bomb —
 * 10 MB of gzip that would expand to gigabytes — so leaves its worker within about a minute
 * instead of holding it for many; INGEST_TIMEOUT_MINUTES stays the upper bound of every parse.
 */
export const EXPANSION = 10;

export interface ParseBudget {
  /** Wall-clock milliseconds the parse may run. */
  ms: number;
  /** True when the size-tied budget, not INGEST_TIMEOUT_MINUTES, is what stops the parse. */
  bySize: boolean;
}

export function parseBudget(ingest: Config['ingest'], inputBytes: number): ParseBudget {
  const bySizeMs = ingest.budgetBaseMs + ((inputBytes * EXPANSION) / ingest.budgetBytesPerSecond) * 1000;
  return bySizeMs < ingest.timeoutMs
    ? { ms: Math.ceil(bySizeMs), bySize: true }
    : { ms: ingest.timeoutMs, bySize: false };
}

/** Parameters of the `files.failed.budget` message. */
export function budgetMessageParams(ingest: Config['ingest'], inputBytes: number, ms: number) {
  return {
    seconds: Math.round(ms / 1000),
    size: `${(inputBytes / 1024 / 1024).toFixed(1)} MB`,
    rate: `${Math.round(ingest.budgetBytesPerSecond / 1024 / 1024)} MB/s`,
  };
}

registerMessages({
  'en-US': {
    'files.failed.budget':
      'Parsing was stopped after {seconds} seconds, the time allowed for a {size} upload: it expands far more than a data file does, or parses too slowly (less than {rate} of decompressed data). It may be a decompression bomb or a damaged file. Check the file and upload it again, or split it into smaller samples.',
  },
  'zh-CN': {
    'files.failed.budget':
      '解析在 {seconds} 秒后被停止，这是 {size} 上传允许的时间：文件解压后远大于正常数据文件，或解析过慢（每秒不足 {rate} 解压数据），可能是解压炸弹或已损坏的文件。请检查文件后重新上传，或拆分为较小的样本。',
  },
});
