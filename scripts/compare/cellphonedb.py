"""Runs the real CellPhoneDB v5 statistical method for scripts/compare/cellphonedb.ts.

Usage: /usr/bin/python3 cellphonedb.py <cellphonedb source dir> <work dir>
The work dir holds db/{gene,protein,complex,interaction}_input.csv, counts.tsv (genes x cells,
normalized), meta.tsv (Cell, cell_type) written by the TypeScript side. Needs pandas, numpy,
numpy_groupies, scipy, anndata, sklearn, tqdm (Debian: python3-pandas python3-numpy-groupies
python3-anndata python3-sklearn python3-tqdm). fbpca and geosketch (used only by CellPhoneDB's
optional subsampler, which this comparison does not use) are stubbed when absent.
Writes cpdb.json: unrounded real means and p-values keyed by id_cp_interaction and "A|B".
"""
import glob
import json
import os
import pickle
import sys
import types

src, work = sys.argv[1], sys.argv[2]
sys.path.insert(0, src)
for name in ("fbpca", "geosketch"):
    try:
        __import__(name)
    except ImportError:
        stub = types.ModuleType(name)
        stub.pca = stub.gs = None
        sys.modules[name] = stub

from cellphonedb.utils import db_utils  # noqa: E402
from cellphonedb.src.core.methods import cpdb_statistical_analysis_method  # noqa: E402

db_dir = os.path.join(work, "db")
for old in glob.glob(os.path.join(db_dir, "cellphonedb_*.zip")):
    os.remove(old)
db_utils.create_db(db_dir)
zip_path = sorted(glob.glob(os.path.join(db_dir, "cellphonedb_*.zip")))[-1]
out = os.path.join(work, "out")
os.makedirs(out, exist_ok=True)
iterations = int(os.environ.get("CPDB_ITERATIONS", "1000"))
threads = int(os.environ.get("CPDB_THREADS", "1"))
res = cpdb_statistical_analysis_method.call(
    cpdb_file_path=zip_path,
    meta_file_path=os.path.join(work, "meta.tsv"),
    counts_file_path=os.path.join(work, "counts.tsv"),
    counts_data="hgnc_symbol",
    output_path=out,
    iterations=iterations,
    threshold=0.1,
    threads=threads,
    debug_seed=42 if threads == 1 else -1,
    pvalue=0.05,
    debug=True,
)
with open(os.path.join(out, "debug_intermediate.pkl"), "rb") as fh:
    dbg = pickle.load(fh)
real = dbg["real_mean_analysis"]
pv = dbg["result_percent"]
means_table = res["means"]
ids = means_table["id_cp_interaction"]
sig = res["significant_means"]
out_json = {
    "pairs": [str(c) for c in real.columns],
    "ids": [str(ids.loc[i]) if i in ids.index else None for i in real.index],
    "means": real.values.tolist(),
    "pvalues": pv.values.tolist(),
    "rankOrder": [str(x) for x in sig["id_cp_interaction"].tolist()],
    "iterations": iterations,
}
with open(os.path.join(work, "cpdb.json"), "w") as fh:
    json.dump(out_json, fh)
print(f"cellphonedb: {len(real.index)} interactions x {len(real.columns)} pairs")
