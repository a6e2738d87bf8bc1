import { categoryColours } from '@cellcloud/formats/palettes';
import { Card, Select, Space, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTaskHost, type TaskColouring, type TaskViewProps } from '../../_shared/web/host';
import { useTaskOutput } from '../../_shared/web/useTaskOutput';
import type { LayoutSummary } from '../contract';

/** Pairs of dimensions shown for a layout of `dims` dimensions (a 3-D layout: two at a time). */
function axisPairs(dims: number): [number, number][] {
  return dims === 3
    ? [
        [0, 1],
        [0, 2],
        [1, 2],
      ]
    : [[0, 1]];
}

/**
 * Two dimensions of a layout in the embedding viewer's frame: centred on the bounding box, scaled
 * by its larger half-range (× 1.02) to [-1, 1], as the explorer frames a stored embedding.
 */
function framed(v: Float32Array, dims: number, a: number, b: number): { x: Float32Array; y: Float32Array } {
  const n = v.length / dims;
  let minA = Infinity;
  let maxA = -Infinity;
  let minB = Infinity;
  let maxB = -Infinity;
  for (let i = 0; i < n; i++) {
    const p = v[i * dims + a]!;
    const q = v[i * dims + b]!;
    if (p < minA) minA = p;
    if (p > maxA) maxA = p;
    if (q < minB) minB = q;
    if (q > maxB) maxB = q;
  }
  const half = Math.max(maxA - minA, maxB - minB) / 2;
  const scale = half > 0 && Number.isFinite(half) ? half * 1.02 : 1;
  const ca = (minA + maxA) / 2;
  const cb = (minB + maxB) / 2;
  const x = new Float32Array(n);
  const y = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = (v[i * dims + a]! - ca) / scale;
    y[i] = (v[i * dims + b]! - cb) / scale;
  }
  return { x, y };
}

/** Most groups listed under the chart (the colours cycle beyond the palette anyway). */
const LEGEND_MAX = 40;

/**
 * Result of a layout run: the computed layout as a scatter of every cell, coloured by an
 * annotation level of the result (cluster first), with a legend; a 3-D layout two dimensions at
 * a time. The summary says what it was computed from, in the reader's language.
 */
export function LayoutView(props: TaskViewProps) {
  const { client, manifest, outputs } = props;
  const { t, i18n } = useTranslation('tasks');
  const { Embedding } = useTaskHost().components;
  const summary = outputs.summary as LayoutSummary;
  const bytes = useTaskOutput(props, { file: summary.file });
  const levels = manifest.obs.filter((o) => o.kind === 'categorical').map((o) => o.key);
  const [level, setLevel] = useState(levels.includes('cluster') ? 'cluster' : (levels[0] ?? ''));
  const [pair, setPair] = useState(0);
  const [groups, setGroups] = useState<{ labels: string[]; codes: Uint32Array } | null>(null);

  useEffect(() => {
    if (!level) return;
    let live = true;
    void client.obs(level).then((c) => {
      if (live && c.kind === 'categorical') setGroups({ labels: c.labels, codes: c.codes });
    });
    return () => {
      live = false;
    };
  }, [client, level]);

  const pairs = axisPairs(summary.dims);
  const [a, b] = pairs[Math.min(pair, pairs.length - 1)]!;
  const xy = useMemo(
    () => (bytes.data ? framed(new Float32Array(bytes.data), summary.dims, a, b) : null),
    [bytes.data, summary.dims, a, b],
  );

  const colouring = useMemo((): TaskColouring | null => {
    if (groups) {
      return {
        kind: 'categorical',
        codes: groups.codes,
        colours: categoryColours('Default', groups.labels.length),
      };
    }
    if (!xy) return null;
    return { kind: 'categorical', codes: new Uint32Array(xy.x.length), colours: ['#1677ff'] };
  }, [groups, xy]);

  const layoutName = t(`layout.options.layout.${summary.layout}`);
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="layout-view">
      <Typography.Text type="secondary" data-testid="layout-summary">
        {t('layout.view.summary', {
          layout: layoutName,
          cells: number.format(summary.nCells),
          representation: t(`layout.view.representation.${summary.representation}`, {
            defaultValue: summary.representation,
          }),
          pcs: summary.nPcs,
          seed: summary.seed,
        })}
      </Typography.Text>
      <Space wrap>
        <span>{t('layout.view.colourBy')}</span>
        <Select
          style={{ width: 200 }}
          value={level}
          onChange={setLevel}
          options={levels.map((k) => ({ value: k, label: k }))}
          data-testid="layout-level"
        />
        {pairs.length > 1 && (
          <>
            <span>{t('layout.view.axes')}</span>
            <Select
              style={{ width: 200 }}
              value={pair}
              onChange={setPair}
              options={pairs.map(([i, j], k) => ({
                value: k,
                label: t('layout.view.axis', { a: i + 1, b: j + 1 }),
              }))}
              data-testid="layout-axes"
            />
          </>
        )}
      </Space>
      {summary.dims === 3 && <Typography.Text type="secondary">{t('layout.view.threeD')}</Typography.Text>}
      <Card size="small" title={layoutName} data-testid="layout-scatter">
        {xy && colouring ? (
          <Embedding x={xy.x} y={xy.y} colouring={colouring} mouseMode="panZoom" height={420} />
        ) : (
          <Typography.Text type="secondary">{t('layout.view.loading')}</Typography.Text>
        )}
        {groups && colouring?.kind === 'categorical' && (
          <Space wrap size={[12, 4]} style={{ marginTop: 8 }} data-testid="layout-legend">
            {groups.labels.slice(0, LEGEND_MAX).map((l, i) => (
              <span key={l} style={{ fontSize: 12 }}>
                <span
                  style={{
                    display: 'inline-block',
                    width: 10,
                    height: 10,
                    borderRadius: 5,
                    marginRight: 4,
                    background: colouring.colours[i],
                  }}
                />
                {l}
              </span>
            ))}
          </Space>
        )}
      </Card>
    </Space>
  );
}
