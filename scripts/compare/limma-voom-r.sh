#!/bin/sh
# Pseudobulk agreement with Bioconductor (issue 15): our limma-voom (packages/tasks/src/
# deg-groups/engine/limma-voom.ts) against Debian's r-bioc-limma / r-bioc-edger on the same counts.
# Needs `apt-get install r-bioc-edger`. Usage: sh scripts/compare/limma-voom-r.sh [work dir]
set -eu
cd "$(dirname "$0")/../.."
DIR="${1:-$(mktemp -d /tmp/limma-compare.XXXXXX)}"
PATH="$PWD/node_modules/.bin:$PATH" tsx scripts/compare/limma-voom-export.ts "$DIR"
Rscript scripts/compare/limma-voom-r.R "$DIR"
