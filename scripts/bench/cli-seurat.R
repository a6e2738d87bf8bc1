# Seurat's guided-tutorial workflow (Debian r-cran-seurat 4.x) on 10x MTX folders, as
# scripts/bench/cli.ts (npm run bench:cli) times it from outside under /usr/bin/time -v.
# Usage: Rscript scripts/bench/cli-seurat.R <out.csv> <folder>…
# One folder per sample (Read10X), merged with the folder names as cell prefixes (as our
# `<sample>_<barcode>`), then the pbmc3k tutorial: QC subset (200 < nFeature < 2,500, percent.mt
# < 5), NormalizeData (LogNormalize, 1e4), FindVariableFeatures (vst, 2,000), ScaleData on the
# variable genes (the tutorial scales all genes: 100k cells x 33k genes dense is ~26 GB), RunPCA
# (50 PCs), FindNeighbors (PCs 1:10), FindClusters (Louvain, resolution 0.5), RunUMAP (PCs 1:10).
# No doublets, markers, t-SNE, 3-D UMAP or writing of an object (docs/benchmarks/cli.md lists
# what our defaults do beyond this). Writes <out.csv> (barcode,cluster) and one line per step on
# stderr: "step <name> <wall s> <cpu s>".
suppressPackageStartupMessages({ library(Matrix); library(Seurat) })
args <- commandArgs(trailingOnly = TRUE)
out <- args[1]
dirs <- args[-1]
last <- proc.time()
step <- function(name) {
  now <- proc.time()
  d <- now - last
  cpu <- d[["user.self"]] + d[["sys.self"]] + d[["user.child"]] + d[["sys.child"]]
  message(sprintf("step %s %.2f %.2f", name, d[["elapsed"]], cpu))
  last <<- now
}
objs <- lapply(dirs, function(d) CreateSeuratObject(Read10X(d), min.cells = 3, min.features = 200))
names <- basename(sub("/+$", "", dirs))
obj <- if (length(objs) == 1) {
  RenameCells(objs[[1]], add.cell.id = names[1])
} else {
  merge(objs[[1]], objs[-1], add.cell.ids = names)
}
rm(objs)
step("read")
obj[["percent.mt"]] <- PercentageFeatureSet(obj, pattern = "^MT-")
obj <- subset(obj, subset = nFeature_RNA > 200 & nFeature_RNA < 2500 & percent.mt < 5)
step("qc")
obj <- NormalizeData(obj, verbose = FALSE)
step("normalize")
obj <- FindVariableFeatures(obj, selection.method = "vst", nfeatures = 2000, verbose = FALSE)
step("hvg")
obj <- ScaleData(obj, features = VariableFeatures(obj), verbose = FALSE)
step("scale")
obj <- RunPCA(obj, features = VariableFeatures(obj), verbose = FALSE)
step("pca")
obj <- FindNeighbors(obj, dims = 1:10, verbose = FALSE)
step("neighbors")
obj <- FindClusters(obj, resolution = 0.5, random.seed = 0, verbose = FALSE)
step("clusters")
obj <- RunUMAP(obj, dims = 1:10, verbose = FALSE)
step("umap")
write.csv(data.frame(barcode = colnames(obj), cluster = as.character(Idents(obj))),
  out, row.names = FALSE, quote = FALSE)
step("write")
message(sprintf("cells %d clusters %d", ncol(obj), length(levels(Idents(obj)))))
