# Runs Bioconductor GSVA (Debian r-bioc-gsva) on the matrices written by gsva-export.ts and reports,
# per gene set, the Pearson correlation and the largest absolute difference between R's scores and
# ours. Usage: Rscript scripts/compare/gsva-r.R <dir> <mode>
suppressPackageStartupMessages(library(GSVA))
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]; mode <- args[2]
x <- as.matrix(read.delim(file.path(dir, paste0(mode, ".matrix.tsv")), row.names = 1, check.names = FALSE))
lines <- strsplit(readLines(file.path(dir, paste0(mode, ".sets.gmt"))), "\t")
sets <- setNames(lapply(lines, function(l) l[-(1:2)]), vapply(lines, `[`, "", 1))
ours <- as.matrix(read.delim(file.path(dir, paste0(mode, ".ours.tsv")), row.names = 1, check.names = FALSE))
t0 <- proc.time()[["elapsed"]]
r <- if (exists("gsvaParam")) {
  gsva(gsvaParam(x, sets, kcdf = "Gaussian", minSize = 1, maxDiff = TRUE), verbose = FALSE)
} else {
  gsva(x, sets, method = "gsva", kcdf = "Gaussian", mx.diff = TRUE, min.sz = 1, verbose = FALSE, parallel.sz = 1)
}
secs <- proc.time()[["elapsed"]] - t0
common <- intersect(rownames(r), rownames(ours))
pear <- vapply(common, function(s) cor(r[s, colnames(ours)], ours[s, ]), 0)
maxdiff <- vapply(common, function(s) max(abs(r[s, colnames(ours)] - ours[s, ])), 0)
cat(sprintf("GSVA %s, %s: %d x %d, %d sets (R %d, ours %d), R %.1f s\n", as.character(packageVersion("GSVA")), mode,
            nrow(x), ncol(x), length(common), nrow(r), nrow(ours), secs))
cat(sprintf("  Pearson per set: min %.6f, median %.6f; sets >= 0.99: %d/%d; max |difference| %.2e\n",
            min(pear), median(pear), sum(pear >= 0.99), length(pear), max(maxdiff)))
worst <- head(sort(pear), 3)
cat(sprintf("  lowest: %s\n", paste(sprintf("%s %.4f", names(worst), worst), collapse = "; ")))
