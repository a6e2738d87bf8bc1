import { expandArchives } from './archive';
import { FormatError } from './errors';
import type { Dataset, SourceFormat } from './matrix';
import { find10xMtx, read10xMtx, type ReadOptions } from './read-10x-mtx';
import type { SourceBundle } from './sources';

export interface Detected {
  format: SourceFormat;
  /** The bundle with archives unpacked; pass it to the reader. */
  bundle: SourceBundle;
}

/** Work out which reader fits the bundle (archives are unpacked first). */
export async function detectFormat(input: SourceBundle): Promise<Detected> {
  const bundle = await expandArchives(input);
  if (find10xMtx(bundle).length > 0) return { format: '10x-mtx', bundle };
  throw new FormatError('format.unknown', { file: input.name });
}

/** Detect the format and read the bundle into the canonical Dataset. */
export async function readDataset(input: SourceBundle, opts: ReadOptions = {}): Promise<Dataset> {
  const { format, bundle } = await detectFormat(input);
  switch (format) {
    case '10x-mtx':
      return read10xMtx(bundle, opts);
    default:
      throw new FormatError('format.unknown', { file: input.name });
  }
}
