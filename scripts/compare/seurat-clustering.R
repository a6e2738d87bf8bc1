# Reference clustering with Debian's r-cran-seurat (4.x) for scripts/compare/seurat-clustering.ts.
# Usage: Rscript scripts/compare/seurat-clustering.R <dir>
# <dir> holds counts.mtx (genes x cells: the cells CellCloud kept after its QC, all genes),
# genes.txt and barcodes.txt. Writes <dir>/seurat_clusters.csv (barcode,cluster) from the Seurat
# guided-tutorial workflow with its defaults: NormalizeData (LogNormalize, 1e4),
# FindVariableFeatures (vst, 2,000 or all genes when fewer), ScaleData on the variable genes,
# RunPCA (50 PCs or fewer), FindNeighbors on PCs 1:10 (k 20, SNN), FindClusters (Louvain,
# resolution 0.5, random.seed 0).
suppressPackageStartupMessages({ library(Matrix); library(Seurat) })
dir <- commandArgs(trailingOnly = TRUE)[1]
counts <- as(readMM(file.path(dir, "counts.mtx")), "dgCMatrix")
rownames(counts) <- make.unique(gsub("_", "-", readLines(file.path(dir, "genes.txt"))))
colnames(counts) <- readLines(file.path(dir, "barcodes.txt"))
obj <- CreateSeuratObject(counts)
obj <- NormalizeData(obj, verbose = FALSE)
obj <- FindVariableFeatures(obj, selection.method = "vst", nfeatures = min(2000, nrow(counts)), verbose = FALSE)
obj <- ScaleData(obj, features = VariableFeatures(obj), verbose = FALSE)
obj <- RunPCA(obj, npcs = min(50, ncol(counts) - 1, length(VariableFeatures(obj)) - 1), verbose = FALSE)
obj <- FindNeighbors(obj, dims = 1:10, verbose = FALSE)
obj <- FindClusters(obj, resolution = 0.5, random.seed = 0, verbose = FALSE)
write.csv(data.frame(barcode = colnames(obj), cluster = as.character(Idents(obj))),
  file.path(dir, "seurat_clusters.csv"), row.names = FALSE, quote = FALSE)
