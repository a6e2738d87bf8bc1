#!/bin/sh
# GSVA agreement with Bioconductor (issue 15): our engine's GSVA (packages/tasks/src/gsva/engine)
# against Debian's r-bioc-gsva on the same pbmc3k matrices (per-label pseudobulk and 440 single
# cells) and the same Hallmark sets. Needs `apt-get install r-bioc-gsva`.
# Usage: sh scripts/compare/gsva-r.sh [work dir]
set -eu
cd "$(dirname "$0")/../.."
DIR="${1:-$(mktemp -d /tmp/gsva-compare.XXXXXX)}"
PATH="$PWD/node_modules/.bin:$PATH" tsx scripts/compare/gsva-export.ts "$DIR"
for mode in pseudobulk cells; do Rscript scripts/compare/gsva-r.R "$DIR" "$mode"; done
