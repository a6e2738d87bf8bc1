import { execFileSync } from 'node:child_process';

/** python3 with anndata importable (the test setup installs Debian's python3-anndata), or undefined. */
export const anndataPython = ['python3', '/usr/bin/python3'].find((py) => {
  try {
    execFileSync(py, ['-c', 'import anndata'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

export interface AnnDataSummary {
  version: string;
  shape: [number, number];
  hvgDtype: string;
  nHvg: number;
  /** Shape of `a[:, a.var.highly_variable]`. */
  hvgSubsetShape: [number, number];
  clusters: string[];
  ordered: boolean;
  obsm: string[];
  layers: string[];
  countsTotal: number;
}

/** Opens the .h5ad with python anndata, as is (no shim), and summarises it. */
export function readWithAnndata(file: string): AnnDataSummary {
  const script = String.raw`
import sys, json, anndata
a = anndata.read_h5ad(sys.argv[1])
hv = a.var["highly_variable"]
print(json.dumps({
  "version": anndata.__version__,
  "shape": list(a.shape),
  "hvgDtype": str(hv.dtype),
  "nHvg": int(hv.sum()),
  "hvgSubsetShape": list(a[:, hv].shape),
  "clusters": [str(c) for c in a.obs["cluster"].cat.categories],
  "ordered": bool(a.obs["cluster"].cat.ordered),
  "obsm": sorted(a.obsm.keys()),
  "layers": sorted(a.layers.keys()),
  "countsTotal": float(a.layers["counts"].sum()),
}))
`;
  return JSON.parse(
    execFileSync(anndataPython!, ['-c', script, file], { encoding: 'utf8' }),
  ) as AnnDataSummary;
}
