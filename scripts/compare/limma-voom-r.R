# edgeR/limma reference for the deg-groups pseudobulk test: DGEList -> filterByExpr -> TMM ->
# voom -> lmFit -> eBayes -> topTable on the counts written by limma-voom-export.ts; reports the
# agreement with our table (genes kept, correlation and largest differences of logFC, t, p).
suppressPackageStartupMessages({ library(edgeR); library(limma) })
dir <- commandArgs(trailingOnly = TRUE)[1]
x <- as.matrix(read.delim(file.path(dir, "counts.tsv"), row.names = 1, check.names = FALSE))
group <- factor(ifelse(startsWith(colnames(x), "g1_"), "g1", "g2"), levels = c("g2", "g1"))
design <- model.matrix(~group)
y <- DGEList(x, group = group)
keep <- filterByExpr(y, design)
y <- calcNormFactors(y[keep, , keep.lib.sizes = FALSE])
v <- voom(y, design)
fit <- eBayes(lmFit(v, design))
tt <- topTable(fit, coef = 2, number = Inf, sort.by = "none")
ours <- read.delim(file.path(dir, "ours.tsv"), check.names = FALSE)
rn <- sub("__[0-9]+$", "", rownames(tt))
m <- match(rn, ours$gene)
cat(sprintf("limma %s / edgeR %s: R keeps %d genes, ours %d, common %d; prior df R %.3f\n",
            packageVersion("limma"), packageVersion("edgeR"), nrow(tt), nrow(ours), sum(!is.na(m)), fit$df.prior))
cat(sprintf("  TMM factors R: %s\n", paste(sprintf("%.5f", y$samples$norm.factors), collapse = " ")))
ok <- !is.na(m)
d <- function(a, b) max(abs(a - b))
cat(sprintf("  logFC: r = %.8f, max |diff| %.2e; t: r = %.8f, max |diff| %.2e; -log10 p: r = %.8f, max rel diff of p %.2e\n",
            cor(tt$logFC[ok], ours$logFC[m[ok]]), d(tt$logFC[ok], ours$logFC[m[ok]]),
            cor(tt$t[ok], ours$t[m[ok]]), d(tt$t[ok], ours$t[m[ok]]),
            cor(-log10(tt$P.Value[ok]), -log10(ours$P.Value[m[ok]])),
            max(abs(tt$P.Value[ok] - ours$P.Value[m[ok]]) / tt$P.Value[ok])))
cat(sprintf("  adj.P.Val < 0.05: R %d, ours %d, both %d\n", sum(tt$adj.P.Val < 0.05), sum(ours$adj.P.Val < 0.05),
            sum(tt$adj.P.Val[ok] < 0.05 & ours$adj.P.Val[m[ok]] < 0.05)))
