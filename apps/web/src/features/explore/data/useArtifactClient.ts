import { useEffect, useState } from 'react';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import { probeInBackground } from '../viewer/rendererChoice';
import { ArtifactClient, artifactBaseUrl } from './ArtifactClient';

export type ManifestState =
  | { status: 'loading' }
  | { status: 'error'; error: Error }
  | {
      status: 'ready';
      client: ArtifactClient;
      manifest: ArtifactManifest;
      /** Reads the manifest again (a task of the result completed); the client and its caches stay. */
      refresh: () => void;
    };

/**
 * One ArtifactClient (and its worker) per result; the manifest is the first request. `baseUrl`
 * overrides the API location (benchmarks and static artifact sets).
 */
export function useArtifactClient(datasetId: string | null, token: string | null, baseUrl?: string): ManifestState {
  const [state, setState] = useState<ManifestState>({ status: 'loading' });
  useEffect(() => {
    if (datasetId === null && !baseUrl) return undefined;
    const client = new ArtifactClient(baseUrl ?? artifactBaseUrl(datasetId!), token);
    probeInBackground(); // the viewer's renderer choice, while the artifacts load

    let live = true;
    setState({ status: 'loading' });
    const refresh = () =>
      void client.refreshManifest().then(
        (manifest) => live && setState({ status: 'ready', client, manifest, refresh }),
        () => undefined, // the manifest read first stays shown
      );
    client.manifest().then(
      (manifest) => live && setState({ status: 'ready', client, manifest, refresh }),
      (error: unknown) => live && setState({ status: 'error', error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
      client.dispose();
    };
  }, [datasetId, token, baseUrl]);
  return state;
}
