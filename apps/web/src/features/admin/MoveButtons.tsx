import { Button } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** The ids with `id` moved one place up (-1) or down (+1); unchanged at either end. */
export function moveId(ids: string[], id: string, by: -1 | 1): string[] {
  const i = ids.indexOf(id);
  const j = i + by;
  if (i < 0 || j < 0 || j >= ids.length) return ids;
  const out = [...ids];
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** Move-up / move-down buttons of row `id` in a list ordered by `ids`; `onOrder` gets the new order. */
export function MoveButtons({
  ids,
  id,
  busy,
  onOrder,
}: {
  ids: string[];
  id: string;
  busy: boolean;
  onOrder: (ids: string[]) => void;
}) {
  const { t } = useTranslation('content');
  const i = ids.indexOf(id);
  return (
    <>
      <Button
        size="small"
        aria-label={t('moveUp')}
        icon={<ArrowUpOutlined />}
        disabled={i <= 0 || busy}
        onClick={() => onOrder(moveId(ids, id, -1))}
      />
      <Button
        size="small"
        aria-label={t('moveDown')}
        icon={<ArrowDownOutlined />}
        disabled={i === ids.length - 1 || busy}
        onClick={() => onOrder(moveId(ids, id, 1))}
      />
    </>
  );
}
