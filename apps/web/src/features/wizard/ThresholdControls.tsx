import { Button, Form, InputNumber, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEFAULT_FILTERS, MITO_CANDIDATES } from '@cellcloud/contracts/constants';
import type { DraftParam } from '@cellcloud/contracts/wizard';

/**
 * Filter thresholds (docs/product/entities.md, docs/product/limits.md#cell-filtering-defaults): gene range, UMI range, mito %, ribo %. They start in the
 * recommended state (shown values = the evaluation's recommendation when there is one); editing
 * a value switches that filter to manual.
 */
export function ThresholdControls({
  param,
  shown,
  onChange,
}: {
  param: DraftParam;
  shown: {
    geneRange: [number, number];
    umiRange: [number, number];
    mitochondrial: number;
    ribosomal: number;
  };
  onChange(patch: Partial<DraftParam>): void;
}) {
  const { t } = useTranslation('wizard');
  const state = (s: string) => t(s === 'recommended' ? 'filters.recommended' : 'filters.manual');
  return (
    <Form layout="inline" style={{ rowGap: 8 }}>
      <Form.Item label={`${t('filters.genes')} (${state(param.geneState)})`}>
        <Space>
          <InputNumber
            data-testid="filter-gene-min"
            min={0}
            value={shown.geneRange[0]}
            onChange={(v) => onChange({ geneState: 'manual', geneRange: [v ?? 0, shown.geneRange[1]] })}
          />
          <InputNumber
            data-testid="filter-gene-max"
            min={0}
            value={shown.geneRange[1]}
            onChange={(v) => onChange({ geneState: 'manual', geneRange: [shown.geneRange[0], v ?? 0] })}
          />
        </Space>
      </Form.Item>
      <Form.Item label={`${t('filters.umis')} (${state(param.umiState)})`}>
        <Space>
          <InputNumber
            min={0}
            value={shown.umiRange[0]}
            onChange={(v) => onChange({ umiState: 'manual', umiRange: [v ?? 0, shown.umiRange[1]] })}
          />
          <InputNumber
            min={0}
            value={shown.umiRange[1]}
            onChange={(v) => onChange({ umiState: 'manual', umiRange: [shown.umiRange[0], v ?? 0] })}
          />
        </Space>
      </Form.Item>
      <Form.Item label={`${t('filters.mito')} (${state(param.mitochondrialState)})`}>
        <Select
          data-testid="filter-mito"
          style={{ width: 100 }}
          value={shown.mitochondrial}
          onChange={(v) => onChange({ mitochondrialState: 'manual', mitochondrial: v })}
          options={MITO_CANDIDATES.map((c) => ({ value: c, label: `${c} %` }))}
        />
      </Form.Item>
      <Form.Item label={t('filters.ribo')}>
        <InputNumber
          min={0}
          max={100}
          value={shown.ribosomal}
          onChange={(v) => onChange({ ribosomal: v ?? DEFAULT_FILTERS.ribosomal })}
        />
      </Form.Item>
      <Button
        onClick={() =>
          onChange({ geneState: 'recommended', umiState: 'recommended', mitochondrialState: 'recommended' })
        }
      >
        {t('filters.reset')}
      </Button>
    </Form>
  );
}
