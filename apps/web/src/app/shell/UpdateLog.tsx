import type { UIEvent } from 'react';
import { Empty, Spin, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUpdateLog } from '../../api/content';

/** Infinitely scrolling update log, page size 10, loaded on first drawer opening (docs/product/states.md#drawer). */
export function UpdateLog({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('shell');
  const log = useUpdateLog(enabled);
  const rows = log.data?.pages.flatMap((p) => p.rows) ?? [];
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < 80 && log.hasNextPage && !log.isFetchingNextPage) {
      void log.fetchNextPage();
    }
  };
  return (
    <div style={{ flex: 1, overflowY: 'auto', paddingTop: 8 }} onScroll={onScroll} data-testid="update-log">
      {log.isPending && enabled && <Spin />}
      {!log.isPending && rows.length === 0 && <Empty description={t('drawer.updateLogEmpty')} />}
      <Timeline
        items={rows.map((r, i) => ({
          key: `${r.logdate}-${i}`,
          children: (
            <div data-testid="update-log-row">
              <Typography.Text strong>{r.logdate}</Typography.Text>
              <div className="cc-html" dangerouslySetInnerHTML={{ __html: r.info }} />
            </div>
          ),
        }))}
      />
      {log.isFetchingNextPage && <Spin size="small" />}
      {!log.hasNextPage && rows.length > 0 && (
        <Typography.Text type="secondary">{t('drawer.updateLogEnd')}</Typography.Text>
      )}
    </div>
  );
}
