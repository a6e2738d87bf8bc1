import { Card, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArtifactClient } from '../data/ArtifactClient';
import type { NormalizedEmbedding } from '../data/decode';
import { EmbeddingViewer } from '../viewer/EmbeddingViewer';
import type { Colouring } from '../viewer/scatterPoints';

interface Props {
  client: ArtifactClient;
  embedding: NormalizedEmbedding;
  gene: { index: number; symbol: string };
  layer: 'counts' | 'normalized';
}

/** One small WebGL feature plot (embedding coloured by one gene). */
export function FeaturePlot({ client, embedding, gene, layer }: Props) {
  const { t } = useTranslation('explore');
  const [colouring, setColouring] = useState<Colouring | null>(null);
  const [max, setMax] = useState(0);
  useEffect(() => {
    let live = true;
    void client.gene(layer, gene.index, false).then((g) => {
      if (!live) return;
      setMax(g.max);
      setColouring({ kind: 'continuous', values: g.values, max: g.max, nz: g.nz });
    });
    return () => {
      live = false;
    };
  }, [client, gene.index, layer]);
  return (
    <Card size="small" title={gene.symbol} data-testid={`feature-${gene.symbol}`}>
      {colouring && (
        <EmbeddingViewer
          x={embedding.x}
          y={embedding.y}
          colouring={colouring}
          mouseMode="panZoom"
          height={260}
        />
      )}
      {colouring && max === 0 && <Typography.Text type="warning">{t('gene.notExpressed')}</Typography.Text>}
    </Card>
  );
}
