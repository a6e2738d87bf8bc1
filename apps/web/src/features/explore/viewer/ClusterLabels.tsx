import { useMemo } from 'react';
import { dataToScreen, type ViewState } from './camera';
import { categoryCentroids } from './scatterPoints';

interface Props {
  x: Float32Array;
  y: Float32Array;
  codes: Uint32Array;
  labels: string[];
  view: ViewState | null;
}

/** "Labels on cluster": each category's name at its centroid, following pan and zoom. */
export function ClusterLabels({ x, y, codes, labels, view }: Props) {
  const centroids = useMemo(
    () => categoryCentroids(x, y, codes, labels.length),
    [x, y, codes, labels.length],
  );
  if (!view) return null;
  return (
    <div style={{ position: 'absolute', inset: 0, pointerEvents: 'none', overflow: 'hidden' }}>
      {centroids.map((c, i) => {
        if (c.n === 0) return null;
        const [px, py] = dataToScreen(view, c.x, c.y);
        if (px < 0 || py < 0 || px > view.width || py > view.height) return null;
        return (
          <span
            key={labels[i]}
            data-testid="cluster-label"
            style={{
              position: 'absolute',
              left: px,
              top: py,
              transform: 'translate(-50%, -50%)',
              fontSize: 12,
              fontWeight: 600,
              color: '#222',
              textShadow: '0 0 3px #fff, 0 0 3px #fff',
              whiteSpace: 'nowrap',
            }}
          >
            {labels[i]}
          </span>
        );
      })}
    </div>
  );
}
