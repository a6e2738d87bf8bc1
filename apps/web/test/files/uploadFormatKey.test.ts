import { describe, expect, it } from 'vitest';
import { uploadFormatKey } from '../../src/features/files/uploadFormatKey';

const row = (over: Partial<Parameters<typeof uploadFormatKey>[0]>, names: string[] = []) => ({
  format: 'auto',
  state: 'failed' as const,
  kind: 'matrix' as const,
  files: names.map((name) => ({ name }) as never),
  ...over,
});

describe('Format column of an upload (issue 31: a failed upload was listed as "Unknown")', () => {
  it('a detected format wins; "Detecting" while received or parsed', () => {
    expect(uploadFormatKey(row({ format: 'h5ad', state: 'completed' }))).toBe('files:formats.h5ad');
    expect(uploadFormatKey(row({ state: 'parsing' }, ['x.h5ad']))).toBe('files:formats.auto');
  });
  it('a failed upload shows the format its file names say', () => {
    expect(uploadFormatKey(row({}, ['pbmc.h5ad']))).toBe('files:formats.h5ad');
    expect(uploadFormatKey(row({}, ['filtered_feature_bc_matrix.h5']))).toBe('files:formats.h5');
    expect(uploadFormatKey(row({}, ['barcodes.tsv.gz', 'features.tsv.gz', 'matrix.mtx.gz']))).toBe(
      'files:formats.mtx',
    );
    expect(uploadFormatKey(row({}, ['counts.csv.gz']))).toBe('files:formats.dense');
    expect(uploadFormatKey(row({ kind: 'celescope' }, ['a.zip']))).toBe('files:formats.celescope');
  });
  it('a failed upload with an unrecognisable name says it was not read, never "Unknown"', () => {
    expect(uploadFormatKey(row({}, ['data.bin']))).toBe('files:formats.notRead');
  });
});
