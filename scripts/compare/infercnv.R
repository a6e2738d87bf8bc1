# Runs R inferCNV's own step functions (the same order as infercnv::run() with HMM off, analysis
# mode "samples", denoise on) on the matrices written by scripts/compare/infercnv.ts, and writes the
# final values for comparison. Usage: Rscript infercnv.R <work dir> <inferCNV checkout>/R
# (inferCNV: https://github.com/broadinstitute/infercnv, read at commit 65e6bf5; needs the R
# packages futile.logger and Matrix). Nothing of inferCNV is copied into this repository.
args <- commandArgs(trailingOnly = TRUE)
work <- args[1]
rdir <- args[2]
suppressPackageStartupMessages(library(futile.logger))
invisible(flog.threshold(WARN))
for (f in c("inferCNV_constants.R", "inferCNV.R", "inferCNV_ops.R")) source(file.path(rdir, f))

expr <- as.matrix(read.table(file.path(work, "expr.tsv"), header = TRUE, sep = "\t", row.names = 1, check.names = FALSE))
go <- read.table(file.path(work, "gene_order.tsv"), header = FALSE, sep = "\t", row.names = 1, stringsAsFactors = FALSE)
colnames(go) <- c(C_CHR, C_START, C_STOP)
go[[C_CHR]] <- factor(go[[C_CHR]], levels = unique(go[[C_CHR]]))
groups <- read.table(file.path(work, "groups.tsv"), header = TRUE, sep = "\t", stringsAsFactors = FALSE)
ref <- list()
for (g in unique(groups$group[groups$reference == "true"])) ref[[g]] <- which(groups$group == g & groups$reference == "true")
obs <- list(observations = which(groups$reference != "true"))
p <- read.table(file.path(work, "params.tsv"), header = TRUE, sep = "\t")

obj <- methods::new("infercnv", expr.data = expr, count.data = expr, gene_order = go,
  reference_grouped_cell_indices = ref, observation_grouped_cell_indices = obs,
  tumor_subclusters = NULL, options = list(), .hspike = NULL)
obj <- require_above_min_mean_expr_cutoff(obj, p$cutoff)
obj <- require_above_min_cells_ref(obj, min_cells_per_gene = p$min_cells)
obj <- normalize_counts_by_seq_depth(obj)
obj <- log2xplus1(obj)
obj <- subtract_ref_expr_from_obs(obj, inv_log = FALSE, use_bounds = TRUE)
obj <- apply_max_threshold_bounds(obj, threshold = p$threshold)
obj <- smooth_by_chromosome(obj, window_length = p$window, smooth_ends = TRUE)
obj <- center_cell_expr_across_chromosome(obj, method = "median")
obj <- subtract_ref_expr_from_obs(obj, inv_log = FALSE, use_bounds = TRUE)
obj <- invert_log2(obj)
obj <- clear_noise_via_ref_mean_sd(obj, sd_amplifier = p$sd_amplifier)
write.table(obj@expr.data, file.path(work, "r_values.tsv"), sep = "\t", quote = FALSE, col.names = NA)
# inferCNV's heat map clusters the observations with hclust(dist(t(x)), "ward.D2") and cuts k groups
# (General_HCL_*): the same on the final values of the observed cells, k = 8.
obs_x <- t(obj@expr.data[, obs$observations, drop = FALSE])
hc <- hclust(dist(obs_x), method = "ward.D2")
write.table(data.frame(cell = rownames(obs_x), hcl = cutree(hc, k = 8)), file.path(work, "r_hcl.tsv"), sep = "\t", quote = FALSE, row.names = FALSE)
