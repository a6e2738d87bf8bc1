import h5wasm from 'h5wasm';
import { attrString, isDataset, isGroup, withH5, type H5Group } from '../src/h5-io';

/** Test helper: every element path of an HDF5 file with its encoding attributes and kind. */
export interface ElementInfo {
  kind: 'group' | 'dataset';
  type?: string;
  version?: string;
  dtype?: string;
  shape?: number[];
}

export async function h5Structure(bytes: Uint8Array): Promise<Map<string, ElementInfo>> {
  await h5wasm.ready;
  return withH5(bytes, 'structure', (f) => {
    const out = new Map<string, ElementInfo>();
    out.set('/', {
      kind: 'group',
      type: attrString(f, 'encoding-type'),
      version: attrString(f, 'encoding-version'),
    });
    const walk = (g: H5Group) => {
      for (const k of g.keys()) {
        const e = g.get(k);
        const p = `${g.path === '/' ? '' : g.path}/${k}`;
        if (isGroup(e)) {
          out.set(p, {
            kind: 'group',
            type: attrString(e, 'encoding-type'),
            version: attrString(e, 'encoding-version'),
          });
          walk(e);
        } else if (isDataset(e)) {
          out.set(p, {
            kind: 'dataset',
            type: attrString(e, 'encoding-type'),
            version: attrString(e, 'encoding-version'),
            dtype: String(e.dtype),
            shape: (e.shape ?? []).map(Number),
          });
        }
      }
    };
    walk(f);
    return out;
  });
}
