import { Alert, Card, Radio, Space, Spin, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import { useSession } from '../../api/session';
import { embeddingChoices } from '../explore/annotationLevels';
import type { ArtifactClient } from '../explore/data/ArtifactClient';
import type { NormalizedEmbedding } from '../explore/data/decode';
import { useArtifactClient } from '../explore/data/useArtifactClient';
import { GeneSearch } from '../explore/GeneSearch';
import { EmbeddingViewer } from '../explore/viewer/EmbeddingViewer';
import { Legend } from '../explore/viewer/Legend';
import { useColouring, type ColourBy } from '../explore/viewer/useColouring';

/** Explorer dataset id of a public dataset's standard analysis (server: services/explore/results.ts). */
export const publicExploreId = (id: string) => `public:${id}`;

const NO_OVERRIDES: ReadonlyMap<number, string> = new Map();

/**
 * Detail preview of a public dataset (issue 20): its standard analysis' embedding, coloured by
 * each annotation level present or — typed in the genes search — by one gene's expression. The
 * explorer's own data client, scatter, legend and gene search, small and without any edit action.
 */
export function PublicPreview({ datasetId, levels }: { datasetId: string; levels: string[] }) {
  const { t } = useTranslation('publicdb');
  const session = useSession();
  const state = useArtifactClient(publicExploreId(datasetId), session?.token ?? null);
  if (state.status === 'loading')
    return (
      <Spin>
        <div style={{ height: 120 }} />
      </Spin>
    );
  if (state.status === 'error')
    return (
      <Alert type="info" showIcon title={t('preview.unavailable')} data-testid="publicdb-preview-none" />
    );
  return <PreviewBody client={state.client} manifest={state.manifest} levels={levels} />;
}

function PreviewBody({
  client,
  manifest,
  levels,
}: {
  client: ArtifactClient;
  manifest: ArtifactManifest;
  levels: string[];
}) {
  const { t } = useTranslation('publicdb');
  // the standardized levels the analysis carries, in the catalogue's order, then its clustering
  const choices = useMemo(() => {
    const categorical = new Set(manifest.obs.filter((o) => o.kind === 'categorical').map((o) => o.key));
    return [...levels, 'cluster'].filter((k, i, all) => categorical.has(k) && all.indexOf(k) === i);
  }, [manifest, levels]);
  const [by, setBy] = useState<ColourBy>({ kind: 'obs', key: choices[0] ?? '' });
  const [symbols, setSymbols] = useState<string[]>([]);
  const [emb, setEmb] = useState<NormalizedEmbedding | null>(null);
  const embedding = embeddingChoices(manifest).find((e) => e.dims === 2);
  useEffect(() => {
    let live = true;
    void client.geneCatalog().then((g) => live && setSymbols(g.symbols));
    if (embedding) void client.embedding(embedding.name).then((e) => live && setEmb(e));
    return () => {
      live = false;
    };
  }, [client, embedding]);
  const colour = useColouring(client, by, 'Default', NO_OVERRIDES, null, '');
  const shown = by.kind === 'gene' ? by.symbol : by.kind === 'obs' ? by.key : '';

  return (
    <Card
      size="small"
      data-testid="publicdb-preview"
      title={
        <span data-testid="publicdb-preview-title" style={{ whiteSpace: 'normal' }}>
          {t('preview.titleCells', { count: manifest.nCells })}
        </span>
      }
    >
      <Space wrap style={{ marginBottom: 8 }}>
        <Radio.Group
          size="small"
          optionType="button"
          data-testid="publicdb-preview-levels"
          value={by.kind === 'obs' ? by.key : null}
          onChange={(e) => setBy({ kind: 'obs', key: e.target.value as string })}
          options={choices.map((k) => ({ value: k, label: k }))}
        />
        <GeneSearch
          symbols={symbols}
          width={180}
          placeholder={t('preview.genePlaceholder')}
          onPick={(g) => setBy({ kind: 'gene', gene: g.index, symbol: g.symbol, layer: 'normalized' })}
        />
      </Space>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        <div style={{ flex: '1 1 260px', minWidth: 0 }}>
          {emb ? (
            <EmbeddingViewer
              x={emb.x}
              y={emb.y}
              colouring={colour.colouring}
              mouseMode="panZoom"
              height={300}
            />
          ) : (
            <Spin style={{ display: 'block', padding: 80 }} />
          )}
        </div>
        <div style={{ flex: '0 1 180px', minWidth: 140, maxHeight: 300, overflow: 'auto' }}>
          <Legend legend={colour.legend} customize={false} onColour={() => {}} />
        </div>
      </div>
      <Typography.Text type="secondary" data-testid="publicdb-preview-colour" data-colour={shown}>
        {colour.loading
          ? t('preview.loading')
          : by.kind === 'gene'
            ? t('preview.byGene', { gene: shown })
            : t('preview.byLevel', { level: shown })}
      </Typography.Text>
    </Card>
  );
}
