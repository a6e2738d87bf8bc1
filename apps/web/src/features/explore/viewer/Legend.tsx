import { Button, Input, Popover, Space, Typography, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkCustomColour } from './colourRules';
import { expressionRamp } from './gradient';
import type { LegendModel } from './useColouring';

const RAMP = expressionRamp(16);

interface Props {
  legend: LegendModel;
  customize: boolean;
  onColour: (labelIndex: number, colour: string) => void;
}

function ColourEditor({
  label,
  index,
  legend,
  onColour,
}: {
  label: string;
  index: number;
  legend: Extract<LegendModel, { kind: 'categorical' }>;
  onColour: Props['onColour'];
}) {
  const { t } = useTranslation('explore');
  const [value, setValue] = useState(legend.colours[index]!);
  const apply = () => {
    const current = new Map(legend.labels.map((l, i) => [l, legend.colours[i]!]));
    const r = checkCustomColour(label, value, current);
    if (r.ok) onColour(index, r.colour);
    else if (r.reason === 'invalidHex') void message.error(t('colours.invalidHex'));
    else void message.error(t('colours.duplicate', { other: r.conflictWith }));
  };
  return (
    <Space.Compact>
      <Input
        data-testid="colour-input"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onPressEnter={apply}
        style={{ width: 110 }}
      />
      <Button type="primary" onClick={apply}>
        {t('colours.apply')}
      </Button>
    </Space.Compact>
  );
}

/** Legend of the current colouring; in customize mode a swatch opens a #RRGGBB editor. */
export function Legend({ legend, customize, onColour }: Props) {
  const { t } = useTranslation('explore');
  if (!legend) return null;
  if (legend.kind === 'continuous') {
    return (
      <div data-testid="legend">
        <Typography.Text strong>{legend.title}</Typography.Text>
        <div
          style={{
            height: 12,
            width: 160,
            background: `linear-gradient(to right, ${RAMP.join(',')})`,
            marginTop: 4,
          }}
        />
        <div style={{ display: 'flex', justifyContent: 'space-between', width: 160, fontSize: 12 }}>
          <span>0</span>
          <span>{legend.max.toPrecision(3)}</span>
        </div>
        {legend.max === 0 && <Typography.Text type="warning">{t('gene.notExpressed')}</Typography.Text>}
      </div>
    );
  }
  return (
    <div data-testid="legend" style={{ maxHeight: 520, overflowY: 'auto', fontSize: 12 }}>
      {legend.labels.map((label, i) => {
        const swatch = (
          <span
            style={{
              display: 'inline-block',
              width: 12,
              height: 12,
              borderRadius: 6,
              background: legend.colours[i],
              marginRight: 6,
              cursor: customize ? 'pointer' : 'default',
            }}
          />
        );
        return (
          <div
            key={label}
            data-testid="legend-item"
            style={{ display: 'flex', alignItems: 'center', padding: '1px 0' }}
          >
            {customize ? (
              <Popover
                trigger="click"
                content={<ColourEditor label={label} index={i} legend={legend} onColour={onColour} />}
              >
                <span data-testid={`swatch-${label}`}>{swatch}</span>
              </Popover>
            ) : (
              swatch
            )}
            <span style={{ flex: 1 }}>{label}</span>
            <span style={{ color: '#8c8c8c', marginLeft: 6 }}>{legend.counts[i]}</span>
          </div>
        );
      })}
    </div>
  );
}
