import { useQuery } from '@tanstack/react-query';
import {
  ADMIN_PUBLIC_INGEST_API,
  publicIngestCheck,
  publicIngestStatus,
  type PublicIngestBody,
} from '@cellcloud/contracts/admin-public-ingest';
import { createUpload, sendFile } from './files';
import { request } from './client';

/** Public dataset ingest from the admin console (contracts/admin-public-ingest.ts). */
export function checkPublicIngest(body: PublicIngestBody) {
  return request(ADMIN_PUBLIC_INGEST_API.start, { method: 'POST', body, schema: publicIngestCheck });
}

/**
 * Sends the dataset files (and the cells table, role `metadata`) through the ordinary resumable
 * upload; resolves with the upload's id once the server holds every byte.
 */
export async function uploadIngestFiles(
  data: File[],
  cells: File | undefined,
  onProgress: (fraction: number) => void,
): Promise<string> {
  const files = [
    ...data.map((f) => ({ f, role: 'data' as const })),
    ...(cells ? [{ f: cells, role: 'metadata' as const }] : []),
  ];
  const single = data.length === 1 && /\.h5ad$/i.test(data[0]!.name);
  const row = await createUpload({
    sampleName: `public_ingest_${Date.now()}`,
    kind: single ? 'annotated' : 'matrix',
    files: files.map(({ f, role }) => ({ name: f.name, size: f.size, role })),
  });
  const total = files.reduce((s, x) => s + x.f.size, 0) || 1;
  const sent = files.map(() => 0);
  for (const [i, { f }] of files.entries())
    await sendFile(row.files[i]!.slot, f, (n) => {
      sent[i] = n;
      onProgress(sent.reduce((a, b) => a + b, 0) / total);
    });
  return row.id;
}

/** An ingest's state, polled every 2 s until it completes or fails. */
export function usePublicIngestStatus(id: string | null) {
  return useQuery({
    queryKey: ['admin', 'public-ingest', id],
    enabled: !!id,
    queryFn: () => request(ADMIN_PUBLIC_INGEST_API.status(id!), { schema: publicIngestStatus }),
    refetchInterval: (q) =>
      q.state.data?.status === 'completed' || q.state.data?.status === 'error' ? false : 2000,
  });
}
