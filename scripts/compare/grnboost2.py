"""GRNBoost2 importances with scikit-learn, as arboreto computes them, for scripts/compare/grnboost2.ts.

Usage: /usr/bin/python3 grnboost2.py <work dir>   (Debian: python3-sklearn, python3-numpy)
Reads tfs.tsv (cells x TFs) and targets.tsv (cells x targets); writes sklearn.json with, per
target, the importances (feature_importances_ x number of stages) and the number of stages.
Settings = arboreto's GRNBoost2: GradientBoostingRegressor(learning_rate=0.01, n_estimators=5000,
max_features=0.1, subsample=0.9) with arboreto's EarlyStopMonitor(window_length=25).
"""
import json
import os
import sys

import numpy as np
from sklearn.ensemble import GradientBoostingRegressor

work = sys.argv[1]


class EarlyStopMonitor:
    def __init__(self, window_length=25):
        self.window_length = window_length

    def __call__(self, current_round, regressor, _):
        if current_round >= self.window_length - 1:
            lo = max(0, current_round - self.window_length + 1)
            return np.mean(regressor.oob_improvement_[lo:current_round + 1]) < 0
        return False


def read(name):
    with open(os.path.join(work, name)) as fh:
        header = fh.readline().rstrip("\n").split("\t")
        data = np.loadtxt(fh, delimiter="\t", dtype=np.float32, ndmin=2)
    return header, data


tf_names, X = read("tfs.tsv")
target_names, Y = read("targets.tsv")
out = {}
for j, name in enumerate(target_names):
    gbr = GradientBoostingRegressor(learning_rate=0.01, n_estimators=5000, max_features=0.1, subsample=0.9, random_state=j)
    gbr.fit(X, Y[:, j], monitor=EarlyStopMonitor(25))
    n = len(gbr.estimators_)
    other = GradientBoostingRegressor(learning_rate=0.01, n_estimators=5000, max_features=0.1, subsample=0.9, random_state=10_000 + j)
    other.fit(X, Y[:, j], monitor=EarlyStopMonitor(25))
    m = len(other.estimators_)
    out[name] = {
        "stages": n,
        "importances": (gbr.feature_importances_ * n).tolist(),
        "otherSeed": (other.feature_importances_ * m).tolist(),
    }
with open(os.path.join(work, "sklearn.json"), "w") as fh:
    json.dump({"tfs": tf_names, "targets": out}, fh)
print(f"sklearn: {len(target_names)} targets x {len(tf_names)} TFs")
