# Reference run of Debian's r-bioc-monocle 2.26 (DDRTree 0.1.5) for scripts/compare/monocle2-r.ts.
# Usage: Rscript scripts/compare/monocle2-r.R <dir>
# <dir> holds counts.mtx (genes x cells, the kept cells, all genes), genes.txt, barcodes.txt,
# ordering.txt (ordering genes, one per line), groups.txt (group label per cell), root.txt (root group).
# Writes <dir>/r_cells.csv (barcode, State, Pseudotime) with the same steps as the CellCloud task:
# newCellDataSet(negbinomial.size(), lowerDetectionLimit 0.5), estimateSizeFactors, detectGenes(0.1),
# setOrderingFilter(ordering genes), reduceDimension(DDRTree, max_components 2), orderCells(),
# root State = the State holding most cells of the root group, orderCells(root_state), pseudotime 0-10.
suppressPackageStartupMessages({ library(Matrix); library(monocle) })
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]
# monocle 2.26 on R >= 4.0 stops in project2MST on `class(projection) != 'matrix'` (class() has two
# values for a matrix); the usual fix swaps in is.matrix().
fixed <- monocle:::project2MST
body(fixed) <- parse(text = gsub("class(projection) != \"matrix\"", "!is.matrix(projection)", deparse(body(fixed)), fixed = TRUE))
assignInNamespace("project2MST", fixed, ns = "monocle")

counts <- as(readMM(file.path(dir, "counts.mtx")), "dgCMatrix")
genes <- readLines(file.path(dir, "genes.txt"))
barcodes <- readLines(file.path(dir, "barcodes.txt"))
rownames(counts) <- make.unique(genes)
colnames(counts) <- barcodes
groups <- readLines(file.path(dir, "groups.txt"))
root <- readLines(file.path(dir, "root.txt"))[1]
ordering <- intersect(readLines(file.path(dir, "ordering.txt")), rownames(counts))

pd <- new("AnnotatedDataFrame", data = data.frame(group = groups, row.names = barcodes))
fd <- new("AnnotatedDataFrame", data = data.frame(gene_short_name = rownames(counts), row.names = rownames(counts)))
cds <- newCellDataSet(counts, phenoData = pd, featureData = fd, expressionFamily = negbinomial.size(), lowerDetectionLimit = 0.5)
cds <- estimateSizeFactors(cds)
cds <- detectGenes(cds, min_expr = 0.1)
cds <- setOrderingFilter(cds, ordering)
t0 <- proc.time()[["elapsed"]]
cds <- reduceDimension(cds, max_components = 2, reduction_method = "DDRTree")
cds <- orderCells(cds)
tab <- table(pData(cds)$State[pData(cds)$group == root])
best <- names(tab)[tab == max(tab)]
if (length(best) > 1) stop("root group ties between States ", paste(best, collapse = ", "))
cds <- orderCells(cds, root_state = best)
secs <- proc.time()[["elapsed"]] - t0
pt <- pData(cds)$Pseudotime
pt <- round(10 * (pt - min(pt)) / (max(pt) - min(pt)), 1)
write.csv(data.frame(barcode = barcodes, State = pData(cds)$State, Pseudotime = pt), file.path(dir, "r_cells.csv"), row.names = FALSE)
cat(sprintf("R monocle %s: %d cells, %d ordering genes, %d States, root State %s, %.1f s (reduceDimension + orderCells)\n",
  as.character(packageVersion("monocle")), ncol(cds), length(ordering), length(unique(pData(cds)$State)), best, secs))
