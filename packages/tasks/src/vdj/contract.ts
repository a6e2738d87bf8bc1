import { z } from 'zod';
import { defineTask } from '@cellcloud/contracts/tasks/define';
import { taskFailures } from '../_shared/contract/messages';
import en from './messages/en-US.json';
import zh from './messages/zh-CN.json';

/**
 * Immune V(D)J (docs/product/screens.md task "immune V(D)J", docs/product/limits.md clonotype classes, docs/methods/vdj.md). Input: 10x
 * `filtered_contig_annotations.csv` files (gzip or not), one per sample (`uploads.contigs`,
 * `contigs2` … `contigs4`), attached to the analysed dataset when the task runs. Each file's cells
 * are matched to the expression barcodes: `<sample>_<barcode>` in a multi-sample result, the bare
 * barcode in a one-sample result, with the 10x "-1" suffix stripped on both sides when that matches
 * more cells (`stripSuffix: 'auto'`). `sampleMap` names the sample of each file; without it the sample
 * whose barcodes match most cells is taken.
 *
 * Steps (docs/methods/vdj.md): productive contigs only; chains by receptor (TCR: TRA, TRB; BCR: IGH
 * with IGK/IGL as the light chain); per cell and chain the contig with most reads, then most UMIs
 * (a remaining tie drops the cell as ambiguous); paired cells only by default; clonotypes
 * `CTgene` (V-D-J genes of both chains, default), `CTaa`, `CTnt`, `CTstrict` (genes + CDR3 nt),
 * `CTstrictaa` (genes + CDR3 aa), a missing chain written "None"; frequency = cells of the same
 * sample with that clonotype; classes Single = 1, Medium = 2–10, Large ≥ 11 (`breaks`).
 *
 * Tables (tables/<name>.csv; column names are part of the contract):
 *   cells          barcode, sample, chain1, chain2, CTgene, CTaa, CTnt, CTstrict, CTstrictaa,
 *                  clonotype, frequency, class, group
 *   clonotypes     sample, clonotype, cells, proportion, class
 *   chain_qc       sample, stage (raw | productive | final), chain, contigs
 *   pairing        sample, paired, single, ambiguous
 *   class_by_sample  Sample, Description, count, Frequency   (docs/methods/vdj.md 01.sc.CloneBar)
 *   class_by_group group, class, cells, fraction              (04.sc.HaveOrNot; "None" = no clonotype)
 *   diversity      sample, clonotypes, cells, chao1, hill_q0, hill_q1, hill_q2, inv_simpson, d50
 *   top_clonotypes rank, clonotype, cells, samples
 *   gene_usage     sample, chain, segment (V | D | J), gene, cells, proportion
 *   vj_pairs       sample, chain, v_gene, j_gene, cells
 *   overlap        sample_a, sample_b, shared                (clonotypes seen in both samples)
 *   group_overlap  group_set, shared                         (UpSet: clonotypes exactly in these groups)
 *   sample_distance sample_a, sample_b, cosine_distance      (> 2 samples: cosine on clonotype proportions)
 *   matching       file, sample, contigs, cells, matched, unmatched
 * Per-cell columns: `vdj_clonotype` (top 5 clonotypes by name, others "Other", no receptor "None"),
 * `vdj_class` (Single / Medium / Large / None) and `vdj_frequency` (numeric, 0 without a clonotype).
 */

export const VDJ_UPLOADS = ['contigs', 'contigs2', 'contigs3', 'contigs4'] as const;

export const vdjParams = z
  .object({
    receptor: z.enum(['auto', 'TCR', 'BCR']).default('auto'),
    cloneDefine: z.enum(['VDJ', 'CDR3', 'VDJ_CDR3', 'VDJ_CDR3aa']).default('VDJ'),
    /** Keep only cells with both chains (`chairPair = TRUE` of docs/methods/vdj.md). */
    pairedOnly: z.boolean().default(true),
    /** Upper bounds of Single and Medium: (0, b1] Single, (b1, b2] Medium, above Large. */
    breaks: z.tuple([z.number().int().min(1), z.number().int().min(2)]).default([1, 10]),
    /** Upload name → sample of the analysis (e.g. { "contigs": "S1" }). */
    sampleMap: z.partialRecord(z.enum(VDJ_UPLOADS), z.string().min(1).max(200)).default({}),
    stripSuffix: z.enum(['auto', 'yes', 'no']).default('auto'),
    /** Grouping for the per-group tables (class share, overlap between groups). */
    groupBy: z.string().min(1).max(200).default('cluster'),
    topN: z.number().int().min(1).max(20).default(5),
  })
  .strict()
  .refine((p) => p.breaks[1] > p.breaks[0], { message: 'breaks must increase', path: ['breaks'] });
export type VdjParams = z.infer<typeof vdjParams>;

export const vdjSummary = z.object({
  receptor: z.enum(['TCR', 'BCR']),
  cloneDefine: z.string(),
  chains: z.tuple([z.string(), z.string()]),
  contigs: z.number().int(),
  productiveContigs: z.number().int(),
  cellsWithContigs: z.number().int(),
  cellsMatched: z.number().int(),
  cellsKept: z.number().int(),
  pairedCells: z.number().int(),
  ambiguousCells: z.number().int(),
  clonotypes: z.number().int(),
  classes: z.record(z.string(), z.number().int()),
  samples: z.array(z.string()),
  groupBy: z.string().nullable(),
  top: z.array(z.object({ clonotype: z.string(), cells: z.number().int() })),
});
export type VdjSummary = z.infer<typeof vdjSummary>;

export const definition = defineTask({
  name: 'vdj',
  titleKey: 'vdj.title',
  displayName: { 'en-US': 'Immune repertoire V(D)J', 'zh-CN': '免疫组库 V(D)J' },
  order: 130,
  method: {
    'en-US':
      'Immune receptor contigs (10x filtered_contig_annotations) were matched to the cells of the analysis; productive contigs were kept, one contig per chain chosen by reads and UMIs, clonotypes defined by the V(D)J genes (or CDR3) of the chains, and clonotypes classed by size; clonal expansion, diversity, V gene usage and V–J pairing were summarised per sample and group in the manner of immunarch.',
    'zh-CN':
      '将免疫受体 contig（10x filtered_contig_annotations）匹配到分析中的细胞；保留有效 contig，按 reads 和 UMI 为每条链选择一个 contig，依据各链的 V(D)J 基因（或 CDR3）定义克隆型并按大小分类；以 immunarch 的方式按样本和分组汇总克隆扩增、多样性、V 基因使用和 V–J 配对。',
    citations: [
      'ImmunoMind Team. immunarch: an R package for painless bioinformatics analysis of T-cell and B-cell immune repertoires. Zenodo 2019, doi:10.5281/zenodo.3367200.',
    ],
  },
  params: vdjParams,
  summary: vdjSummary,
  permission: 'exploreVdj',
  species: 'any',
  tab: 'vdj',
  timeoutMinutes: 30,
  uploads: VDJ_UPLOADS.map((name, i) => ({
    name,
    labelKey: 'vdj.contigsFile',
    accept: '.csv,.gz',
    maxBytes: 200_000_000,
    ...(i === 0 ? { required: true } : {}),
  })),
  fields: {
    groupBy: { kind: 'level' },
    sampleMap: { kind: 'hidden' },
    breaks: { kind: 'hidden' },
    stripSuffix: { advanced: true },
    topN: { advanced: true },
  },
  messages: taskFailures('vdj', en.failures, zh.failures),
});
