-- Issue 22 item 8: real bilingual help content describing the product as built (wizard defaults
-- from packages/contracts/src/wizard.ts, methods from METHODS.md, tasks from
-- packages/contracts/src/tasks/*.ts, failures from apps/server/src/i18n and the task messages).
-- Upserts: the thin seed pages of 0005 are replaced, new pages added. Dollar-quoted bodies.

INSERT INTO content_entries (id, type, doc_type, title_en, title_zh, body_en, body_zh, sort) VALUES
('guide-start', 'guidebook', 'all', 'Getting started', '快速入门',
$$<p>This chapter takes you from an empty account to an explored result in about fifteen minutes, using the public <b>pbmc3k</b> data set (2,700 peripheral blood mononuclear cells, 10x Genomics) as the example.</p>
<ol>
<li><b>Sign up and log in.</b> Register with your e-mail address and the 6-digit code sent to it (valid 2 hours; a new code after 60 seconds). User names cannot be changed later.</li>
<li><b>Import a sample.</b> Open <b>Import Data</b>, tab <b>Expression matrix</b>. Enter a sample name (for example <code>pbmc3k</code>), choose the species and drop the three files of the 10x folder <code>filtered_gene_bc_matrices/hg19/</code> (<code>matrix.mtx</code>, <code>genes.tsv</code>, <code>barcodes.tsv</code>) or one .zip/.tar.gz of that folder. The upload is resumable: if the connection drops, the list offers <i>Resume upload</i>. When the file is received, CellCloud parses it; the state goes <i>Uploading → Parsing → Completed</i> and the list shows the detected format, the number of cells and genes.</li>
<li><b>Start an analysis.</b> In <b>My Analyses</b> click <b>Initiate analysis</b> (or open <code>/integrateLocalData</code>). The wizard has four steps: <i>Select samples</i>, <i>Cell filtering</i>, <i>Analysis options</i>, <i>Preview submission</i>. For a first run keep every default: they are chosen to give good clusters on typical droplet data (see the chapter <b>Analysis options</b>). Give the job a name and submit.</li>
<li><b>Wait or leave.</b> The analysis runs on the server; its progress is shown live in <b>My Analyses</b>. You can close the browser: the bell icon notifies you when it completes or fails, with the reason in your language.</li>
<li><b>Explore.</b> Click the finished result. The explorer shows the UMAP coloured by cluster; the tabs below are <i>Cell Quality</i>, <i>Gene Expression</i>, <i>Cellular Composition</i>, <i>Differential Expression</i> and the downstream analyses (cell interactions, trajectory, CNV, ITH, V(D)J, TF regulation, cell annotations). Type a gene such as <code>MS4A1</code>, <code>CD14</code> or <code>NKG7</code> in the gene search to colour the cells by expression.</li>
<li><b>Go further.</b> Lasso cells to make a subset, rename clusters into cell types, run differential expression between groups with enrichment, or re-cluster a population as a sub-celltype analysis. Request the <code>.h5ad</code>, a Seurat bundle or the marker table under <b>Requested Downloads</b>.</li>
</ol>
<p>Every chapter of this guidebook and every page of the documentation exists in English and Chinese; switch the language at the top right.</p>$$,
$$<p>本章以公开数据集 <b>pbmc3k</b>（2,700 个外周血单个核细胞，10x Genomics）为例，带您在约十五分钟内从空账号走到可探索的分析结果。</p>
<ol>
<li><b>注册并登录。</b>使用邮箱地址和发送到该邮箱的 6 位验证码注册（有效期 2 小时；60 秒后可重新获取）。用户名注册后不可修改。</li>
<li><b>导入样本。</b>打开<b>导入数据</b>的<b>表达矩阵</b>标签页，输入样本名称（例如 <code>pbmc3k</code>），选择物种，拖入 10x 目录 <code>filtered_gene_bc_matrices/hg19/</code> 中的三个文件（<code>matrix.mtx</code>、<code>genes.tsv</code>、<code>barcodes.tsv</code>），或该目录打包的一个 .zip/.tar.gz 文件。上传支持断点续传：连接中断后，列表中会出现<i>继续上传</i>。文件接收完毕后细胞云会自动解析，状态依次为<i>上传中 → 解析中 → 已完成</i>，列表显示识别出的格式、细胞数和基因数。</li>
<li><b>发起分析。</b>在<b>我的分析</b>中点击<b>发起分析</b>（或打开 <code>/integrateLocalData</code>）。向导共四步：<i>选择样本</i>、<i>细胞过滤</i>、<i>分析参数</i>、<i>预览提交</i>。第一次分析建议全部使用默认值，它们能在常见液滴数据上得到良好的聚类（见<b>分析参数</b>一章）。为任务命名后提交。</li>
<li><b>等待或离开。</b>分析在服务器上运行，<b>我的分析</b>中实时显示进度。您可以关闭浏览器：任务完成或失败时铃铛图标会通知您，并以您的语言说明原因。</li>
<li><b>探索结果。</b>点击已完成的结果。浏览器显示按聚类着色的 UMAP，下方的标签页为<i>细胞质量</i>、<i>基因表达</i>、<i>细胞组成</i>、<i>差异表达</i>以及各项下游分析（细胞互作、轨迹、CNV、ITH、V(D)J、转录因子调控、细胞注释）。在基因搜索框输入 <code>MS4A1</code>、<code>CD14</code> 或 <code>NKG7</code> 等基因，即可按表达量为细胞着色。</li>
<li><b>深入分析。</b>用套索选择细胞创建子集，把聚类重命名为细胞类型，在分组之间做差异表达并进行富集分析，或对某一群细胞做亚细胞类型再聚类。在<b>申请下载</b>中申请 <code>.h5ad</code>、Seurat 数据包或标记基因表。</li>
</ol>
<p>本指南的每一章和文档的每一页都有中英文两个版本，可在右上角切换语言。</p>$$, 100),

('guide-import', 'guidebook', 'all', 'Importing each file format', '各种文件格式的导入',
$$<p>One upload holds <b>one sample</b>. The format is detected from the content, not from the file name; the Format column shows what was detected (or <i>Unknown</i> when parsing failed). Counts must be raw integer UMI counts: normalised, log-transformed or scaled values are refused with a message saying so.</p>
<h3>10x Genomics MTX (folder, zip or tar)</h3>
<p>The output of Cell Ranger <code>filtered_feature_bc_matrix/</code>: <code>matrix.mtx.gz</code>, <code>features.tsv.gz</code>, <code>barcodes.tsv.gz</code> (v3), or the older v2 names <code>matrix.mtx</code>, <code>genes.tsv</code>, <code>barcodes.tsv</code>. Upload the three files together, or one archive (.zip, .tar, .tar.gz) that contains them at any depth.</p>
<pre>pbmc3k.zip
└── filtered_gene_bc_matrices/hg19/
    ├── barcodes.tsv
    ├── genes.tsv
    └── matrix.mtx</pre>
<p>A features file with only one column is accepted (the symbol is copied). Purely numeric barcodes (BD Rhapsody) are prefixed with the sample name. Upload the <i>filtered</i> matrix, not <code>raw_feature_bc_matrix</code>: the raw matrix holds hundreds of thousands of empty droplets and exceeds the 100,000-cell limit.</p>
<h3>10x HDF5 (.h5)</h3>
<p>The single file <code>filtered_feature_bc_matrix.h5</code> written by Cell Ranger (v2 and v3 layouts). Only the Gene Expression features are kept.</p>
<h3>Dense table (TSV or CSV)</h3>
<p>A gene-by-cell table: first row = cell barcodes, first column = gene symbols, one integer count per cell. Tab- or comma-separated, optionally gzip-compressed.</p>
<pre>gene	AAACATACAACCAC-1	AAACATTGAGCTAC-1
MS4A1	0	3
CD3E	2	0</pre>
<h3>AnnData (.h5ad), tab <i>Annotated dataset</i></h3>
<p>An h5ad written by scanpy/anndata. CellCloud looks for raw counts in <code>X</code>, then <code>layers["counts"]</code>, then <code>raw.X</code>; cell metadata in <code>obs</code> (for example author cell types) is kept and appears as annotation levels in the explorer. If <code>X</code> holds normalised values, save the counts first: <code>adata.layers["counts"] = adata.X.copy()</code> before normalising, then <code>adata.write_h5ad("sample.h5ad")</code>.</p>
<h3>CeleScope output, tab <i>Sequencing project (CeleScope)</i></h3>
<p>A folder or archive of a Singleron CeleScope run. Version 2 layouts are read from <code>{sample}/outs/filtered/</code>, version 1 from <code>{sample}/05.count/{sample}_filtered_feature_bc_matrix/</code>; CeleScope's clusters and t-SNE coordinates (<code>tsne_coord.tsv</code>) are kept as metadata when present.</p>
<h3>After the upload</h3>
<ul><li>Only <b>Completed</b> samples can be analysed; a sample needs more than 30 and fewer than 100,000 cells.</li>
<li>If parsing failed, the reason is shown in the list (hover or expand it for the full text). A parse that stopped unexpectedly keeps your file: click <b>Retry</b>. Other failures need a corrected file; see the FAQ.</li>
<li>Sample names start with a letter or underscore and use letters, digits, underscores, dots or spaces only.</li></ul>$$,
$$<p>每次上传对应<b>一个样本</b>。格式根据文件内容而非文件名识别；“格式”列显示识别结果（解析失败时显示<i>未知</i>）。计数必须是原始整数 UMI 计数：标准化、对数转换或缩放后的数据会被拒绝，并给出相应提示。</p>
<h3>10x Genomics MTX（文件夹、zip 或 tar）</h3>
<p>即 Cell Ranger 输出的 <code>filtered_feature_bc_matrix/</code>：<code>matrix.mtx.gz</code>、<code>features.tsv.gz</code>、<code>barcodes.tsv.gz</code>（v3），或旧版 v2 的 <code>matrix.mtx</code>、<code>genes.tsv</code>、<code>barcodes.tsv</code>。可以同时上传这三个文件，也可以上传包含它们的一个压缩包（.zip、.tar、.tar.gz，目录层级不限）。</p>
<pre>pbmc3k.zip
└── filtered_gene_bc_matrices/hg19/
    ├── barcodes.tsv
    ├── genes.tsv
    └── matrix.mtx</pre>
<p>只有一列的 features 文件也可接受（自动复制基因名）。纯数字条形码（BD Rhapsody）会加上样本名前缀。请上传<i>过滤后</i>的矩阵，而不是 <code>raw_feature_bc_matrix</code>：原始矩阵包含数十万个空液滴，会超过 100,000 个细胞的上限。</p>
<h3>10x HDF5（.h5）</h3>
<p>Cell Ranger 生成的单个文件 <code>filtered_feature_bc_matrix.h5</code>（支持 v2 和 v3 结构），只保留基因表达（Gene Expression）特征。</p>
<h3>稠密表格（TSV 或 CSV）</h3>
<p>基因×细胞表格：第一行为细胞条形码，第一列为基因名，每个细胞一个整数计数。制表符或逗号分隔，可用 gzip 压缩。</p>
<pre>gene	AAACATACAACCAC-1	AAACATTGAGCTAC-1
MS4A1	0	3
CD3E	2	0</pre>
<h3>AnnData（.h5ad），<i>已注释数据集</i>标签页</h3>
<p>由 scanpy/anndata 写出的 h5ad 文件。细胞云依次在 <code>X</code>、<code>layers["counts"]</code>、<code>raw.X</code> 中查找原始计数；<code>obs</code> 中的细胞元数据（例如作者注释的细胞类型）会保留，并作为注释层级出现在结果浏览器中。如果 <code>X</code> 是标准化后的数据，请在标准化之前保存计数：<code>adata.layers["counts"] = adata.X.copy()</code>，然后 <code>adata.write_h5ad("sample.h5ad")</code>。</p>
<h3>CeleScope 输出，<i>测序项目（CeleScope）</i>标签页</h3>
<p>新格元 CeleScope 运行结果的文件夹或压缩包。v2 结构读取 <code>{sample}/outs/filtered/</code>，v1 结构读取 <code>{sample}/05.count/{sample}_filtered_feature_bc_matrix/</code>；若存在 CeleScope 的聚类和 t-SNE 坐标（<code>tsne_coord.tsv</code>），会作为元数据保留。</p>
<h3>上传之后</h3>
<ul><li>只有状态为<b>已完成</b>的样本才能用于分析；样本细胞数须大于 30 且小于 100,000。</li>
<li>解析失败时，列表中会显示原因（悬停或展开可查看全文）。解析意外中断时文件会保留，点击<b>重试</b>即可；其他失败需要修正文件，参见常见问题。</li>
<li>样本名称须以字母或下划线开头，只能包含字母、数字、下划线、点或空格。</li></ul>$$, 110),

('guide-filtering', 'guidebook', 'all', 'Cell filtering step', '细胞过滤步骤',
$$<p>Step 2 of the wizard decides which cells enter the analysis. Filters apply <b>per sample</b>; genes detected in fewer than 5 cells of a sample are dropped (METHODS §1.3).</p>
<table><tr><th>Filter</th><th>Default</th><th>Meaning</th></tr>
<tr><td>Genes per cell</td><td>Recommended: min 200, max = 98th percentile of the sample + 1</td><td>Removes empty droplets (too few genes) and likely multiplets (too many). Manual mode uses your range (default 200–5,000).</td></tr>
<tr><td>UMIs per cell</td><td>Recommended: min 0, max = 98th percentile + 1</td><td>Same idea on total counts. Manual default 0–30,000.</td></tr>
<tr><td>Mitochondrial %</td><td>Recommended: the candidate among 5, 10, 15, 20, 30, 50 % that removes closest to 5 % of the cells of each sample; across samples the most frequent pick (the largest on a tie)</td><td>Cells with a high mitochondrial fraction are usually damaged. Cells are kept when their mito % is strictly below the cutoff. Manual default 50 %.</td></tr>
<tr><td>Ribosomal %</td><td>50 %</td><td>Upper limit on ribosomal-protein gene fraction.</td></tr></table>
<p><b>Evaluate or skip.</b> Choose <i>Evaluate</i> to run a short background job that computes the distributions before and after filtering and the thresholds the recommended mode would apply to each sample; you can then adjust the sliders and see how many cells each criterion removes. <i>Skip</i> submits with the chosen modes directly; the Preview step then says the thresholds are computed when the analysis runs.</p>
<p><b>When to change.</b> Use manual ranges for cell types that are naturally large (plasma cells, hepatocytes, tumour cells, dendritic cells) — the 98th-percentile cap removes 2 % of the largest cells of every sample. Raise the mitochondrial cutoff for tissues with high respiration (heart, kidney, muscle), lower it for PBMC-like samples. If a sample loses all cells, the job fails with <i>No cell of sample … passes the cell filters</i>: widen the thresholds.</p>$$,
$$<p>向导第 2 步决定哪些细胞进入分析。过滤<b>按样本</b>进行；在某样本中少于 5 个细胞检测到的基因会被去除（METHODS §1.3）。</p>
<table><tr><th>过滤条件</th><th>默认值</th><th>含义</th></tr>
<tr><td>每个细胞的基因数</td><td>推荐：最小 200，最大 = 该样本第 98 百分位数 + 1</td><td>去除空液滴（基因过少）和可能的多细胞（基因过多）。手动模式使用您设定的范围（默认 200–5,000）。</td></tr>
<tr><td>每个细胞的 UMI 数</td><td>推荐：最小 0，最大 = 第 98 百分位数 + 1</td><td>同上，作用于总计数。手动默认 0–30,000。</td></tr>
<tr><td>线粒体比例</td><td>推荐：在 5、10、15、20、30、50 % 中选取使每个样本被去除细胞比例最接近 5 % 的值；多个样本取出现次数最多的值（并列时取较大值）</td><td>线粒体比例高的细胞通常已受损。线粒体比例严格低于阈值的细胞被保留。手动默认 50 %。</td></tr>
<tr><td>核糖体比例</td><td>50 %</td><td>核糖体蛋白基因比例的上限。</td></tr></table>
<p><b>评估或跳过。</b>选择<i>评估</i>会运行一个简短的后台任务，计算过滤前后的分布以及推荐模式对每个样本采用的阈值；之后可以拖动滑块，查看每个条件去除了多少细胞。选择<i>跳过</i>则直接按所选模式提交，预览步骤会提示阈值将在分析运行时计算。</p>
<p><b>何时调整。</b>对于天然体积较大的细胞类型（浆细胞、肝细胞、肿瘤细胞、树突状细胞），请使用手动范围——第 98 百分位数上限会去除每个样本中最大的 2 % 细胞。对呼吸作用旺盛的组织（心脏、肾脏、肌肉）提高线粒体阈值，对 PBMC 类样本可降低阈值。若某个样本的细胞全部被过滤，任务会失败并提示<i>样本“…”没有细胞通过细胞过滤</i>：请放宽阈值。</p>$$, 120),

('guide-options', 'guidebook', 'all', 'Analysis options', '分析参数',
$$<p>Step 3 of the wizard sets the pipeline of METHODS §1.4–1.8: doublets → ambient RNA → normalisation (counts per 10,000, log1p) → highly variable genes → (cell cycle) → scaling (max 10) → PCA → (batch correction) → neighbour graph (15 neighbours) → clustering → UMAP and t-SNE → cluster markers (Wilcoxon, Benjamini–Hochberg).</p>
<table><tr><th>Option</th><th>Default</th><th>What it does / when to change it</th></tr>
<tr><td>Cluster resolution</td><td>0.8 (range 0.01–5)</td><td>Granularity of the clustering. Higher values give more, smaller clusters. Lower it (0.3–0.5) when known cell types are split into several clusters, raise it (1–2) to separate rare or closely related states.</td></tr>
<tr><td>Clustering algorithm</td><td>Louvain</td><td>Community detection on the neighbour graph. Leiden gives guaranteed well-connected clusters and similar results; keep Louvain to match the reference pipeline.</td></tr>
<tr><td>Highly variable genes</td><td>2000, Seurat v3</td><td>Genes used for PCA. Seurat v3 (variance-stabilised counts) is the reference flavour; Seurat (dispersion on log data) matches CeleScope's report; Pearson residuals suit deep, heterogeneous data. Use 3000–5000 for complex tissues.</td></tr>
<tr><td>Number of principal components</td><td>Manual, 10</td><td>Dimensions of the neighbour graph. <i>Automatic</i> applies METHODS' rule (cumulative variance above 90 % and the elbow of the variance curve); it often picks 6–7 on small data and merges populations. Use 20–30 for large, heterogeneous data sets.</td></tr>
<tr><td>Scale only highly variable genes</td><td>Off</td><td>Saves memory and time; suggested above 500,000 cells. The markers are still computed on all genes.</td></tr>
<tr><td>Ambient RNA removal</td><td>Off</td><td>DecontX-style estimate of contamination by free RNA, per sample (needs more than 100 cells). Turn on for tissues with much lysis (tumours, brain) when marker genes of one type appear at low level in all clusters.</td></tr>
<tr><td>Doublet detection and removal</td><td>On</td><td>Scrublet per sample, expected doublet rate 0.05 (0.25 if no threshold is found); predicted doublets are removed. Turn off only for data already cleaned of doublets.</td></tr>
<tr><td>Remove cell-cycle effects</td><td>Off</td><td>Scores S and G2M phases and regresses them out (human and mouse only). Use it when proliferating cells form their own clusters that hide the cell identity.</td></tr>
<tr><td>Batch-effect removal</td><td>None (available with several samples)</td><td>Harmony (corrects the PCA embedding) or MNN (mutual nearest neighbours), batch key <code>Sample ID</code>. Use it when the same cell type splits by sample on the UMAP; do not use it when samples differ biologically in composition you want to see.</td></tr>
<tr><td>Cell annotation</td><td>None</td><td>Automatic (reference correlation in the SingleR manner plus marker scoring) or a chosen reference with a tissue type; adds annotation levels to the result. You can also run annotation later from the Cell Annotations tab.</td></tr></table>
<p>Step 4 (<i>Preview submission</i>) lists every choice with the thresholds that will be applied. An identical submission (same samples, parameters and engine version) reuses the earlier result instead of computing again. A random seed (42) makes every result reproducible.</p>$$,
$$<p>向导第 3 步设置 METHODS §1.4–1.8 所述流程：双细胞 → 环境 RNA → 标准化（每细胞 10,000 计数、log1p）→ 高变基因 →（细胞周期）→ 缩放（上限 10）→ PCA →（批次校正）→ 近邻图（15 个近邻）→ 聚类 → UMAP 和 t-SNE → 聚类标记基因（Wilcoxon 检验，Benjamini–Hochberg 校正）。</p>
<table><tr><th>参数</th><th>默认值</th><th>作用 / 何时调整</th></tr>
<tr><td>聚类分辨率</td><td>0.8（范围 0.01–5）</td><td>聚类的粒度。数值越大，聚类越多、越小。已知细胞类型被拆成多个聚类时调低（0.3–0.5）；需要分开稀有或相近的细胞状态时调高（1–2）。</td></tr>
<tr><td>聚类算法</td><td>Louvain</td><td>在近邻图上做社区检测。Leiden 保证聚类内部连通，结果相近；与参考流程保持一致时使用 Louvain。</td></tr>
<tr><td>高变基因</td><td>2000，Seurat v3</td><td>用于 PCA 的基因。Seurat v3（方差稳定化计数）为参考方法；Seurat（对数数据离散度）与 CeleScope 报告一致；Pearson 残差适合测序深、异质性高的数据。复杂组织可用 3000–5000。</td></tr>
<tr><td>主成分数量</td><td>手动，10</td><td>近邻图的维度。<i>自动</i>按 METHODS 规则（累计方差超过 90 % 且位于方差曲线拐点）选取，在小数据上常只选 6–7 个而合并细胞群。大型、异质性高的数据建议 20–30。</td></tr>
<tr><td>仅对高变基因进行缩放</td><td>关闭</td><td>节省内存和时间，建议在超过 500,000 个细胞时开启。标记基因仍基于全部基因计算。</td></tr>
<tr><td>去除环境RNA</td><td>关闭</td><td>按样本估计游离 RNA 污染（DecontX 方法，要求每个样本超过 100 个细胞）。在裂解较多的组织（肿瘤、脑）中，若某类细胞的标记基因在所有聚类中都有低水平表达，建议开启。</td></tr>
<tr><td>双细胞检测与去除</td><td>开启</td><td>按样本运行 Scrublet，预期双细胞率 0.05（若找不到阈值则用 0.25），去除预测的双细胞。仅当数据已去除双细胞时关闭。</td></tr>
<tr><td>去除细胞周期效应</td><td>关闭</td><td>计算 S 期和 G2M 期得分并回归去除（仅限人和小鼠）。当增殖细胞自成聚类、掩盖了细胞身份时使用。</td></tr>
<tr><td>批次效应去除</td><td>无（选择多个样本时可用）</td><td>Harmony（校正 PCA 空间）或 MNN（互近邻），批次键为 <code>Sample ID</code>。同一细胞类型在 UMAP 上按样本分开时使用；若样本间的组成差异正是您要观察的生物学差异，则不要使用。</td></tr>
<tr><td>细胞注释</td><td>无</td><td>自动（仿 SingleR 的参考相关性加标记基因打分）或指定参考和组织类型；会在结果中增加注释层级。也可以之后在“细胞注释”标签页中运行。</td></tr></table>
<p>第 4 步（<i>预览提交</i>）列出所有选择以及将要采用的阈值。完全相同的提交（相同样本、参数和引擎版本）会直接复用之前的结果。固定随机种子（42）保证结果可重复。</p>$$, 130),

('guide-explore', 'guidebook', 'all', 'Reading the explorer', '解读结果浏览器',
$$<p>The explorer shows the embedding (UMAP, t-SNE, 3D, or spatial coordinates when present) coloured by any annotation level or gene, and the tabs below it. Lasso or box-select cells to restrict plots to a selection or to save it as a subset.</p>
<h3>Cell Quality</h3>
<p>Violin plots of genes per cell, UMIs per cell, mitochondrial % and ribosomal % per sample, before and after filtering, the thresholds used, how many cells each criterion removed, and the doublet and ambient-RNA summaries. Read it first: a sample whose median genes per cell is far below the others, or that lost most of its cells, is a quality problem, not biology.</p>
<h3>Gene Expression</h3>
<p><b>Feature plot</b> (expression on the embedding), <b>violin</b> (distribution per group), <b>dot plot</b> (dot size = fraction of cells expressing, colour = mean expression) and <b>heatmap</b> (scaled mean per group). Canonical markers of common cell types can be picked with one click. The <b>cell score</b> task also lives here (see the documentation page on cell scores).</p>
<h3>Cellular Composition</h3>
<p>Proportions of each cell type per sample or group (stacked bars) and <b>Ro/e</b>, the ratio of observed to expected cell numbers computed from a chi-square contingency table: Ro/e &gt; 1 means a cell type is enriched in a group, &lt; 1 depleted. If the chi-square p-value is above 0.05 the distribution does not differ from chance and Ro/e is not shown. A box plot of group averages needs at least 3 samples per group.</p>
<h3>Differential Expression</h3>
<p>The marker table of each cluster (Wilcoxon rank-sum, one cluster versus all others, Benjamini–Hochberg adjusted p), with log2 fold change, Pct1 (fraction of the cluster's cells expressing the gene) and Pct2 (fraction in the other cells), filters and a volcano plot. <i>Calculate cluster genes</i> recomputes markers for another annotation level; <i>New comparison</i> compares two groups and offers enrichment (ORA, GSEA, GSVA).</p>
<h3>Downstream tabs</h3>
<p>Cell Interactions, Trajectory Analysis, CNV Analysis, ITH Analysis, VDJ Analysis, TF regulation and Cell Annotations each run as a task from their tab: fill the run panel (every parameter has a default), follow the progress in the task history, and open the result view when it completes. A tab that says <i>This analysis has not been run</i> explains what it needs. Each is described in the documentation.</p>
<h3>Exports</h3>
<p>Every plot exports PNG (at least 4,200 px high), SVG and TIFF; tables export CSV.</p>$$,
$$<p>结果浏览器显示降维图（UMAP、t-SNE、3D，如有空间坐标则显示空间图），可按任意注释层级或基因着色，下方为各标签页。用套索或框选选中细胞，可将图限定在所选细胞上，或保存为子集。</p>
<h3>细胞质量</h3>
<p>按样本显示过滤前后每个细胞的基因数、UMI 数、线粒体比例和核糖体比例的小提琴图，所用阈值，每个条件去除的细胞数，以及双细胞和环境 RNA 的汇总。请首先查看：某个样本每细胞基因数中位数远低于其他样本，或大部分细胞被过滤，这是质量问题，而不是生物学差异。</p>
<h3>基因表达</h3>
<p><b>特征图</b>（在降维图上显示表达）、<b>小提琴图</b>（各组的分布）、<b>气泡图</b>（点大小 = 表达该基因的细胞比例，颜色 = 平均表达）和<b>热图</b>（各组缩放后的平均值）。常见细胞类型的经典标记基因可一键选取。<b>细胞打分</b>任务也在此标签页（见文档中的细胞打分一页）。</p>
<h3>细胞组成</h3>
<p>每个样本或分组中各细胞类型的比例（堆叠柱状图）以及 <b>Ro/e</b>（观测细胞数与期望细胞数之比，由卡方列联表计算）：Ro/e &gt; 1 表示该细胞类型在该组中富集，&lt; 1 表示减少。卡方检验 p 值大于 0.05 时，分布与随机无差异，不显示 Ro/e。分组均值的箱线图要求每组至少 3 个样本。</p>
<h3>差异表达</h3>
<p>每个聚类的标记基因表（Wilcoxon 秩和检验，一个聚类对其余所有细胞，Benjamini–Hochberg 校正 p 值），包括 log2 倍数变化、Pct1（该聚类中表达该基因的细胞比例）和 Pct2（其他细胞中的比例），支持筛选并提供火山图。<i>计算聚类基因</i>可针对其他注释层级重新计算标记基因；<i>新建比较</i>比较两个分组，并可进行富集分析（ORA、GSEA、GSVA）。</p>
<h3>下游分析标签页</h3>
<p>细胞互作、轨迹分析、CNV 分析、ITH 分析、VDJ 分析、转录因子调控和细胞注释都在各自的标签页中以任务形式运行：填写运行面板（每个参数都有默认值），在任务历史中查看进度，完成后打开结果视图。显示<i>该数据集尚未运行此分析</i>的标签页会说明所需条件。各项分析在文档中均有介绍。</p>
<h3>导出</h3>
<p>所有图可导出 PNG（高度至少 4,200 像素）、SVG 和 TIFF；表格可导出 CSV。</p>$$, 140),

('guide-downloads', 'guidebook', 'all', 'Requested downloads and approval', '申请下载与审批',
$$<p>Result files are downloaded on request. From a result choose <b>Request download</b> and the export: <b>AnnData .h5ad</b> (for scanpy), <b>Seurat bundle (.zip)</b> (counts, metadata and embeddings to rebuild a Seurat object in R) or the <b>marker table (.csv)</b>.</p>
<ul><li>If your plan includes free downloads the request is approved at once; otherwise it waits for an administrator, who approves it or declines it with a reason. You get a notification either way.</li>
<li>The page <b>Requested Downloads</b> has three lists: <i>Requested</i> (waiting), <i>Active</i> (ready: click Download) and <i>Expired</i>.</li>
<li>Approved converted files stay valid for <b>7 days</b>; afterwards the file is deleted and the request moves to Expired. Request it again if needed.</li></ul>$$,
$$<p>结果文件需申请后下载。在分析结果中选择<b>申请下载</b>并选择导出类型：<b>AnnData .h5ad</b>（用于 scanpy）、<b>Seurat 数据包（.zip）</b>（计数、元数据和降维坐标，可在 R 中重建 Seurat 对象）或<b>标记基因表（.csv）</b>。</p>
<ul><li>若您的套餐包含免费下载，申请会立即通过；否则需等待管理员审批，管理员可以通过，或填写理由拒绝。两种情况都会通知您。</li>
<li><b>申请下载</b>页面有三个列表：<i>已申请</i>（等待中）、<i>可下载</i>（已就绪，点击下载）和<i>已过期</i>。</li>
<li>审批通过的转换文件有效期为 <b>7 天</b>，之后文件被删除，申请移至已过期。如仍需要，请重新申请。</li></ul>$$, 180),

('doc-import', 'documentation', 'all', 'Importing data', '导入数据',
$$<p><b>Import Data</b> has three tabs: <b>Expression matrix</b> (10x MTX folder, zip or tar; 10x HDF5; dense TSV/CSV), <b>Annotated dataset</b> (AnnData .h5ad) and <b>Sequencing project (CeleScope)</b>. Each upload is one sample with a name and a species. Uploads use the resumable tus protocol, so an interrupted transfer continues where it stopped, even after a server restart.</p>
<p>After the transfer a background job parses the file: it detects the format, reads the raw counts (refusing normalised or negative values), makes gene and barcode names unique, records species, gene identifiers (symbols or Ensembl ids), cell and gene counts, and stores the sample. The state becomes <b>Completed</b> or <b>Failed</b> with a reason in your language.</p>
<table><tr><th>Format</th><th>What to upload</th></tr>
<tr><td>10x MTX</td><td><code>matrix.mtx(.gz)</code> + <code>features.tsv(.gz)</code> or <code>genes.tsv</code> + <code>barcodes.tsv(.gz)</code>, as files or one .zip/.tar/.tar.gz</td></tr>
<tr><td>10x HDF5</td><td><code>filtered_feature_bc_matrix.h5</code></td></tr>
<tr><td>TSV/CSV</td><td>genes in rows, cells in columns, integer counts</td></tr>
<tr><td>AnnData</td><td><code>.h5ad</code> with counts in X, <code>layers["counts"]</code> or <code>raw.X</code>; obs columns kept</td></tr>
<tr><td>CeleScope</td><td>run folder/archive with <code>outs/filtered/</code> (v2) or <code>05.count/…_filtered_feature_bc_matrix/</code> (v1)</td></tr></table>
<p>Limits: more than 30 and fewer than 100,000 cells per sample; one matrix per upload (an archive holding several samples is refused: upload them one by one); your plan's storage quota. Worked examples are in the guidebook chapter <i>Importing each file format</i>.</p>$$,
$$<p><b>导入数据</b>有三个标签页：<b>表达矩阵</b>（10x MTX 文件夹、zip 或 tar；10x HDF5；TSV/CSV 稠密矩阵）、<b>已注释数据集</b>（AnnData .h5ad）和<b>测序项目（CeleScope）</b>。每次上传为一个样本，需填写样本名称和物种。上传采用可续传的 tus 协议，传输中断后可从中断处继续，服务器重启后亦然。</p>
<p>传输完成后，后台任务解析文件：识别格式，读取原始计数（拒绝标准化或负值数据），使基因名和条形码唯一，记录物种、基因标识（基因名或 Ensembl ID）、细胞数和基因数，并保存样本。状态变为<b>已完成</b>，或<b>失败</b>并以您的语言说明原因。</p>
<table><tr><th>格式</th><th>上传内容</th></tr>
<tr><td>10x MTX</td><td><code>matrix.mtx(.gz)</code> + <code>features.tsv(.gz)</code> 或 <code>genes.tsv</code> + <code>barcodes.tsv(.gz)</code>，可直接上传文件或打包为一个 .zip/.tar/.tar.gz</td></tr>
<tr><td>10x HDF5</td><td><code>filtered_feature_bc_matrix.h5</code></td></tr>
<tr><td>TSV/CSV</td><td>行为基因、列为细胞的整数计数</td></tr>
<tr><td>AnnData</td><td><code>.h5ad</code>，计数位于 X、<code>layers["counts"]</code> 或 <code>raw.X</code>；保留 obs 列</td></tr>
<tr><td>CeleScope</td><td>包含 <code>outs/filtered/</code>（v2）或 <code>05.count/…_filtered_feature_bc_matrix/</code>（v1）的运行目录或压缩包</td></tr></table>
<p>限制：每个样本细胞数大于 30 且小于 100,000；每次上传一个矩阵（包含多个样本的压缩包会被拒绝，请逐个上传）；不超过套餐的存储配额。示例见指南中<i>各种文件格式的导入</i>一章。</p>$$, 2),

('doc-analysis', 'documentation', 'all', 'Running an analysis', '发起分析',
$$<p>Open <b>My Analyses → Initiate analysis</b> (<code>/integrateLocalData</code>). The wizard saves a draft at every step, so you can leave and continue later.</p>
<ol><li><b>Select samples</b>: Completed samples of one species; optionally give each a group name (used later in composition and comparisons).</li>
<li><b>Cell filtering</b>: genes, UMIs, mitochondrial and ribosomal thresholds, recommended or manual, optionally evaluated on your data first (guidebook chapter <i>Cell filtering step</i>).</li>
<li><b>Analysis options</b>: resolution 0.8, Louvain, 2000 highly variable genes (Seurat v3), 10 principal components, doublet removal on, ambient RNA removal off, cell-cycle removal off, batch correction none, annotation none (guidebook chapter <i>Analysis options</i> for each parameter).</li>
<li><b>Preview submission</b>: check and submit.</li></ol>
<p>The job runs in a memory-capped worker process; if the estimated memory exceeds the worker's limit it is refused before it starts, with the amount needed. Results are published atomically (<code>analysis.h5ad</code>, marker table, explorer data). A failed job keeps its reason in My Analyses and in the notification.</p>
<p><b>Sub-celltype analysis</b>: from a result, select clusters or cells and re-cluster them (re-reduce dimensionality, scale only HVGs, resolution 0.8 by default) or extract them as a new analysis.</p>$$,
$$<p>打开<b>我的分析 → 发起分析</b>（<code>/integrateLocalData</code>）。向导在每一步都会保存草稿，可以随时离开，稍后继续。</p>
<ol><li><b>选择样本</b>：选择同一物种、状态为已完成的样本；可为每个样本填写分组名称（之后用于细胞组成和比较分析）。</li>
<li><b>细胞过滤</b>：基因数、UMI、线粒体和核糖体阈值，推荐或手动模式，可先在数据上评估（见指南<i>细胞过滤步骤</i>一章）。</li>
<li><b>分析参数</b>：分辨率 0.8、Louvain、2000 个高变基因（Seurat v3）、10 个主成分、开启双细胞去除、关闭环境 RNA 去除、关闭细胞周期校正、不做批次校正、不做注释（各参数详见指南<i>分析参数</i>一章）。</li>
<li><b>预览提交</b>：检查后提交。</li></ol>
<p>任务在有内存上限的计算进程中运行；若预估内存超过上限，任务会在开始前被拒绝，并给出所需内存。结果以原子方式发布（<code>analysis.h5ad</code>、标记基因表、浏览器数据）。失败的任务会在“我的分析”和通知中保留失败原因。</p>
<p><b>亚细胞类型分析</b>：在结果中选择聚类或细胞，重新聚类（重新降维、仅缩放高变基因，默认分辨率 0.8），或提取为新的分析。</p>$$, 3),

('doc-explore', 'documentation', 'all', 'Exploring results', '探索结果',
$$<p>The explorer (<code>/userDatasetAnalysis?id=…</code>) loads only the columns each view needs, as binary data fetched by HTTP range, so data sets of hundreds of thousands of cells stay responsive. It draws with WebGL on a GPU and falls back to a CPU renderer.</p>
<ul><li><b>Embedding</b>: UMAP, t-SNE, 3D; colour by an annotation level (cluster, Sample ID, cell type, your own levels) or by a gene; custom palettes and colours; lasso selection.</li>
<li><b>Annotation levels and subsets</b>: copy a level before editing it, rename or merge groups (for example clusters into cell types), save selections as subsets; these drive every plot and task.</li>
<li><b>Tabs</b>: Cell Quality, Gene Expression, Cellular Composition, Differential Expression, Cell Interactions, Trajectory Analysis, CNV Analysis, ITH Analysis, VDJ Analysis, TF regulation, Cell Annotations. Which ones you see follows your plan.</li></ul>
<p>The guidebook chapter <i>Reading the explorer</i> explains each plot; the following documentation pages describe each downstream analysis, its parameters and its references.</p>$$,
$$<p>结果浏览器（<code>/userDatasetAnalysis?id=…</code>）只加载每个视图所需的列，通过 HTTP 范围请求获取二进制数据，因此数十万个细胞的数据集也能流畅操作。有 GPU 时使用 WebGL 绘制，否则使用 CPU 渲染。</p>
<ul><li><b>降维图</b>：UMAP、t-SNE、3D；可按注释层级（聚类、Sample ID、细胞类型、自定义层级）或基因着色；支持自定义调色板和颜色、套索选择。</li>
<li><b>注释层级与子集</b>：编辑前先复制层级，重命名或合并分组（例如把聚类合并为细胞类型），将所选细胞保存为子集；这些层级与子集可用于所有图和任务。</li>
<li><b>标签页</b>：细胞质量、基因表达、细胞组成、差异表达、细胞互作、轨迹分析、CNV 分析、ITH 分析、VDJ 分析、转录因子调控、细胞注释。可见的标签页取决于您的套餐。</li></ul>
<p>指南中<i>解读结果浏览器</i>一章解释了每种图；后续文档页介绍各项下游分析、参数和参考文献。</p>$$, 4),

('doc-de-enrichment', 'documentation', 'all', 'Differential expression and enrichment (ORA, GSEA, GSVA)', '差异表达与富集分析（ORA、GSEA、GSVA）',
$$<h3>DE between groups</h3>
<p><i>New comparison</i> in the Differential Expression tab compares two groups of cells defined on any annotation level, a subset or the current selection (each group needs at least 3 cells). Test: Wilcoxon rank-sum with tie correction on the log-normalised layer, all genes, Benjamini–Hochberg adjusted p-values, as scanpy <code>rank_genes_groups</code> (METHODS §3.1). Columns: log2 fold change, Pct1 / Pct2 (fraction of cells expressing in group 1 / group 2), z score, p, adjusted p. With <i>pseudobulk</i> on, raw counts are summed per sample (key <code>Sample ID</code>) and group, and compared with limma-voom (TMM, filterByExpr, eBayes), which controls for sample-to-sample variation when you have replicates. Read the volcano plot as log2 fold change (x) against −log10 adjusted p (y); highlighted genes pass the filter.</p>
<h3>Over-representation (ORA)</h3>
<p>Up-regulated genes passing log2FC ≥ 0.25, p &lt; 0.05 and Pct ≥ 0.1 (adjusted p filter 1 by default) are tested against GO biological process, Reactome, WikiPathways and MSigDB Hallmark (gene sets of 10–500 genes) with the hypergeometric test and BH correction, as clusterProfiler <code>enricher</code>; terms with adjusted p &lt; 0.05 and at least 3 genes are reported; the top 10 are plotted (bar/dot plot of gene ratio and −log10 adjusted p, a gene × term heat plot coloured by log2FC, an enrichment map of overlapping terms and a gene–concept network). Reference: Yu et al., <i>OMICS</i> 2012 (clusterProfiler).</p>
<h3>GSEA</h3>
<p>All genes expressed in at least 5 % of either group are ranked by log2 fold change and tested with preranked GSEA (fgsea, 10,000 permutations, seed 10, set sizes 10–500, default collection Hallmark). Read the enrichment plot: the running score peaks early for sets up in group 1 (positive NES) and late for sets up in group 2 (negative NES); the ticks mark where the set's genes fall in the ranking. References: Subramanian et al., <i>PNAS</i> 2005; Korotkevich et al., <i>bioRxiv</i> 2016 (fgsea).</p>
<h3>GSVA</h3>
<p>Gene-set variation analysis scores each set per group (pseudobulk mean per group of the chosen level, default <code>cluster</code>) or per cell (up to 5,000 sampled cells), Gaussian kernel, default collection Hallmark; the heat map shows the 30 most variable sets, row-scaled. Reference: Hänzelmann et al., <i>BMC Bioinformatics</i> 2013.</p>
<p>Gene sets are human and mouse collections; for another species genes are mapped through an orthologue table when the server has one, otherwise the task asks you to convert the data to human or mouse genes.</p>$$,
$$<h3>分组间差异表达</h3>
<p>差异表达标签页中的<i>新建比较</i>可比较两组细胞，分组可基于任意注释层级、子集或当前所选细胞（每组至少 3 个细胞）。检验方法：在对数标准化数据上对全部基因做带结校正的 Wilcoxon 秩和检验，Benjamini–Hochberg 校正 p 值，与 scanpy <code>rank_genes_groups</code> 一致（METHODS §3.1）。列包括：log2 倍数变化、Pct1 / Pct2（第 1 / 第 2 组中表达该基因的细胞比例）、z 值、p 值和校正 p 值。开启<i>拟批量（pseudobulk）</i>时，按样本（键 <code>Sample ID</code>）和分组累加原始计数，用 limma-voom（TMM、filterByExpr、eBayes）比较，有生物学重复时可控制样本间差异。火山图横轴为 log2 倍数变化，纵轴为 −log10 校正 p 值；高亮的基因通过筛选。</p>
<h3>过表达分析（ORA）</h3>
<p>满足 log2FC ≥ 0.25、p &lt; 0.05、Pct ≥ 0.1（默认校正 p 阈值为 1）的上调基因，与 GO 生物过程、Reactome、WikiPathways 和 MSigDB Hallmark（10–500 个基因的基因集）比较，采用超几何检验和 BH 校正，与 clusterProfiler <code>enricher</code> 一致；报告校正 p &lt; 0.05 且至少含 3 个基因的条目，并绘制前 10 个（基因比例与 −log10 校正 p 的柱状图/气泡图，按 log2FC 着色的基因×条目热图、条目重叠的富集图以及基因–条目网络图）。参考文献：Yu 等，<i>OMICS</i> 2012（clusterProfiler）。</p>
<h3>GSEA</h3>
<p>在任一组中至少 5 % 细胞表达的全部基因按 log2 倍数变化排序，进行预排序 GSEA（fgsea，10,000 次置换，种子 10，基因集大小 10–500，默认 Hallmark）。富集图解读：第 1 组上调的基因集（NES 为正）运行得分在前部达到峰值，第 2 组上调的基因集（NES 为负）在后部；竖线标出基因集中的基因在排序中的位置。参考文献：Subramanian 等，<i>PNAS</i> 2005；Korotkevich 等，<i>bioRxiv</i> 2016（fgsea）。</p>
<h3>GSVA</h3>
<p>基因集变异分析按组（所选层级每组的拟批量均值，默认 <code>cluster</code>）或按细胞（最多抽样 5,000 个细胞）为每个基因集打分，使用高斯核，默认 Hallmark；热图显示变化最大的 30 个基因集（按行缩放）。参考文献：Hänzelmann 等，<i>BMC Bioinformatics</i> 2013。</p>
<p>基因集为人和小鼠的集合；其他物种若服务器有同源基因表则自动映射，否则任务会提示您将数据转换为人或小鼠基因。</p>$$, 10),

('doc-cell-score', 'documentation', 'all', 'Cell score (gene-set scoring)', '细胞打分（基因集打分）',
$$<p>In the Gene Expression tab, the cell score task gives every cell a score for a gene set: a built-in set, genes you type, or an uploaded file (one gene per line, no header). Two methods (default: both):</p>
<ul><li><b>AddModuleScore</b> (Seurat): mean expression of the set minus the mean of control genes drawn from the same expression bins (24 bins, 100 control genes per gene). Scores are centred around 0; positive means higher than expected for genes of that expression level.</li>
<li><b>UCell</b>: a Mann–Whitney U statistic on the within-cell gene ranks (maxRank 1,500), between 0 and 1; robust to data set size and composition.</li></ul>
<p>Both run on the log-normalised layer without re-normalisation (METHODS §4). The result is a new numeric column shown on the embedding and as violins per group. Genes not found in the data are reported; if too few are found the task stops and says how many matched. References: Tirosh et al., <i>Science</i> 2016 (module score); Andreatta &amp; Carmona, <i>Comput Struct Biotechnol J</i> 2021 (UCell).</p>$$,
$$<p>在基因表达标签页中，细胞打分任务为每个细胞计算某个基因集的得分：可使用内置基因集、手动输入的基因或上传的文件（每行一个基因，无表头）。两种方法（默认两者都算）：</p>
<ul><li><b>AddModuleScore</b>（Seurat）：基因集的平均表达减去按表达水平分箱抽取的对照基因的平均表达（24 个分箱，每个基因 100 个对照基因）。得分以 0 为中心，正值表示高于同等表达水平基因的预期。</li>
<li><b>UCell</b>：基于细胞内基因排序的 Mann–Whitney U 统计量（maxRank 1,500），取值 0 到 1；对数据集大小和组成稳健。</li></ul>
<p>两者均在对数标准化数据上计算，不重新标准化（METHODS §4）。结果是一个新的数值列，可在降维图上显示，并按组绘制小提琴图。未在数据中找到的基因会列出；找到的基因过少时任务停止，并说明匹配的数量。参考文献：Tirosh 等，<i>Science</i> 2016（模块得分）；Andreatta 与 Carmona，<i>Comput Struct Biotechnol J</i> 2021（UCell）。</p>$$, 11),

('doc-interaction', 'documentation', 'all', 'Cell interactions (CellPhoneDB)', '细胞互作（CellPhoneDB）',
$$<p>The Cell Interactions tab runs the CellPhoneDB v4 statistical method (METHODS §5) on a level of cell types (human data; gene symbols or Ensembl ids are both matched). Defaults: up to 500 cells sampled per cell type, a gene counts as expressed in a type when at least 10 % of its cells express it (threshold 0.1), 1,000 label permutations, p &lt; 0.05, seed 42.</p>
<p>For every ligand–receptor pair (including multi-subunit complexes, taken at their least expressed subunit) and every ordered pair of cell types, the mean of the ligand's mean in the sender and the receptor's mean in the receiver is compared with the same mean after shuffling cell labels; the p-value is the fraction of permutations at least as high.</p>
<p><b>Reading the plots.</b> <i>Step 1 · Overview</i> is a heat map of the number of significant interactions between each source (sender) and target (receiver) cell type, on a log(count + 1) scale. <i>Step 2</i> is a dot plot of ligand–receptor pairs (the top 30 by rank value when you choose none) across cell-type pairs: colour = mean expression, size = −log10 p. The table lists every pair with its partners, means and p-values and can be exported. A significant interaction means co-expression beyond chance, not proven signalling. Reference: Efremova et al., <i>Nat Protoc</i> 2020; Garcia-Alonso et al., <i>Nat Genet</i> 2022 (v4).</p>$$,
$$<p>细胞互作标签页在细胞类型层级上运行 CellPhoneDB v4 统计方法（METHODS §5；支持人类数据，基因名或 Ensembl ID 均可匹配）。默认值：每种细胞类型最多抽样 500 个细胞；某细胞类型中至少 10 % 的细胞表达某基因时视为表达（阈值 0.1）；1,000 次标签置换；p &lt; 0.05；种子 42。</p>
<p>对每个配体–受体对（多亚基复合物取表达最低的亚基）和每个有序细胞类型对，计算配体在发送细胞中的均值与受体在接收细胞中的均值的平均数，并与打乱细胞标签后的同一统计量比较；p 值为置换结果不低于观测值的比例。</p>
<p><b>图的解读。</b><i>第 1 步 · 概览</i>为热图，显示每对来源（发送方）与目标（接收方）细胞类型之间的显著互作数，刻度为 log(计数 + 1)。<i>第 2 步</i>为配体–受体对在各细胞类型对上的气泡图（未选择时显示 rankValue 最高的 30 个）：颜色 = 平均表达，大小 = −log10 p。表格列出每个配对的分子、均值和 p 值，可导出。显著互作表示超出随机的共表达，并不证明存在信号传递。参考文献：Efremova 等，<i>Nat Protoc</i> 2020；Garcia-Alonso 等，<i>Nat Genet</i> 2022（v4）。</p>$$, 12),

('doc-trajectory', 'documentation', 'all', 'Trajectory analysis (Monocle 2 and Monocle 3)', '轨迹分析（Monocle 2 与 Monocle 3）',
$$<p>Run trajectories on a subset of related cell types (for example a differentiation lineage), not on a whole tissue.</p>
<h3>Monocle 2</h3>
<p>Cells of the chosen groups (downsampled automatically on large data) are ordered with DDRTree on ordering genes (default: 2000 variable genes, or dispersion-based genes, or an uploaded list). The tree is split into <b>States</b>; pseudotime starts at a root state chosen from a root group or directly. Plots: the trajectory coloured by pseudotime, State or any level; genes along pseudotime (the 8 top genes); a heat map of the 30 genes that change most with pseudotime (test on a natural spline of pseudotime, q-values). <b>BEAM</b> tests genes for branch-dependent expression at a branch point and draws the branched heat map (pre-branch in the middle, the two fates on each side). Reference: Qiu et al., <i>Nat Methods</i> 2017.</p>
<h3>Monocle 3</h3>
<p>Learns a principal graph on the UMAP (or re-reduces if asked), with up to 1,000 cells per group, k = 20 neighbours; gene modules at resolution 0.001. You choose the root cell type or root nodes; pseudotime is the graph distance from the root. Genes that vary along the graph are found with Moran's I on the principal graph (graph_test, q ≤ 0.05) and grouped into modules; the top 10 are drawn along pseudotime. Reference: Cao et al., <i>Nature</i> 2019.</p>
<p>Read pseudotime as an order, not time in hours; branches are hypotheses to check with known markers.</p>$$,
$$<p>请在一组相关的细胞类型（例如一条分化谱系）上运行轨迹分析，而不是在整个组织上。</p>
<h3>Monocle 2</h3>
<p>所选分组的细胞（数据较大时自动降采样）基于排序基因（默认 2000 个高变基因，或基于离散度的基因，或上传的列表）用 DDRTree 排序。树被划分为若干<b>状态（State）</b>；拟时序从根状态开始，根状态可由根分组推断或直接指定。图包括：按拟时序、状态或任意层级着色的轨迹；前 8 个基因随拟时序的变化；随拟时序变化最显著的 30 个基因的热图（基于拟时序自然样条的检验，q 值）。<b>BEAM</b> 在分支点检验基因的分支依赖表达，并绘制分支热图（中间为分支前，两侧为两个命运）。参考文献：Qiu 等，<i>Nat Methods</i> 2017。</p>
<h3>Monocle 3</h3>
<p>在 UMAP 上学习主图（也可选择重新降维），每组最多 1,000 个细胞，k = 20 个近邻；基因模块分辨率 0.001。您选择根细胞类型或根节点；拟时序为到根的图距离。沿主图变化的基因用主图上的 Moran's I 检验（graph_test，q ≤ 0.05）并归为基因模块；前 10 个基因绘制随拟时序的变化。参考文献：Cao 等，<i>Nature</i> 2019。</p>
<p>拟时序表示顺序而非实际时间；分支是需要用已知标记基因验证的假设。</p>$$, 13),

('doc-cnv-ith', 'documentation', 'all', 'CNV and ITH analysis', 'CNV 与 ITH 分析',
$$<h3>CNV (inferCNV method)</h3>
<p>Infers large-scale copy-number changes from expression (human and mouse; genome hg38, hg19 or mm10, chosen automatically). Genes are ordered by chromosome position; expression relative to <b>reference</b> normal cells (for example T cells, B cells, endothelial cells that you choose) is smoothed over a window of 101 genes, centred, capped at ±3, and denoised (1.5 standard deviations). Cells are split into subclones per sample by hierarchical clustering (up to 8). Defaults: genes expressed with mean above 0.1, at least 50 observed cells, up to 5,000 reference cells. METHODS §7.</p>
<p><b>Reading the plots.</b> The heat map has cells in rows, genome position in columns: red = gain, blue = loss; reference cells should look flat. The <b>CNV score</b> (mean squared deviation per cell) separates malignant from normal cells: tumour cells score higher. Further views: the mean CNV value per group and chromosome arm (1 = neutral), CNV scores per sample, cell type or subclone as box plots with pairwise tests (Holm-adjusted p), and the gene-frequency view, which shows for each gene the fraction of cells with a gain (&gt; 1.01) or loss (&lt; 0.99). Reference: Patel et al., <i>Science</i> 2014; Tickle et al., inferCNV (Broad Institute).</p>
<h3>ITH (intra-tumour heterogeneity)</h3>
<p>Computed after a CNV task: for each sample or identity with at least 20 cells (up to 500 sampled), the ITH score of each cell is its distance to the other cells of the identity in a PCA of 20 components on 2,000 variable genes (method <i>dist</i>), or the spread (IQR) of its Pearson correlations with them (method <i>iqr</i>); identities are compared with Welch's t-test (or Wilcoxon) in box plots. Higher ITH means a more diverse tumour.</p>$$,
$$<h3>CNV（inferCNV 方法）</h3>
<p>根据表达推断大片段拷贝数变化（人和小鼠；基因组 hg38、hg19 或 mm10，自动选择）。基因按染色体位置排序；相对于您选择的<b>参考</b>正常细胞（例如 T 细胞、B 细胞、内皮细胞）的表达，在 101 个基因的窗口内平滑、中心化、截断在 ±3，并去噪（1.5 倍标准差）。每个样本内通过层次聚类划分亚克隆（最多 8 个）。默认值：平均表达高于 0.1 的基因，至少 50 个观测细胞，最多 5,000 个参考细胞。见 METHODS §7。</p>
<p><b>图的解读。</b>热图的行是细胞，列是基因组位置：红色 = 扩增，蓝色 = 缺失；参考细胞应接近平坦。<b>CNV 得分</b>（每个细胞的均方偏差）可区分恶性细胞与正常细胞：肿瘤细胞得分更高。其他视图：各组在每个染色体臂上的平均 CNV 值（1 为中性）；按样本、细胞类型或亚克隆的 CNV 得分箱线图及两两检验（Holm 校正 p）；基因频率视图，显示每个基因发生扩增（&gt; 1.01）或缺失（&lt; 0.99）的细胞比例。参考文献：Patel 等，<i>Science</i> 2014；Tickle 等，inferCNV（Broad Institute）。</p>
<h3>ITH（肿瘤内异质性）</h3>
<p>在 CNV 任务之后计算：对每个至少有 20 个细胞（最多抽样 500 个）的样本或分组，每个细胞的 ITH 得分为在基于 2,000 个高变基因、20 个主成分的 PCA 空间中与同组其他细胞的距离（<i>dist</i> 方法），或与它们的 Pearson 相关系数的四分位距（<i>iqr</i> 方法）；各组用 Welch t 检验（或 Wilcoxon）比较，并以箱线图展示。ITH 越高，肿瘤越多样。</p>$$, 14),

('doc-annotation', 'documentation', 'all', 'Cell annotation', '细胞注释',
$$<p>The Cell Annotations tab maps clusters to cell types (METHODS §10). <b>Automatic</b> mode correlates every cell with a bundled reference (chosen by species and tissue: human haematopoietic (DMAP), Human Cell Atlas profiles, mouse RNA-seq, human pancreas (Baron)) in the manner of SingleR — Spearman correlation on the reference's marker genes, fine-tuning between close labels (threshold 0.05), pruning of labels whose score is more than 3 MADs below the others — and scores clusters with marker lists (CellMarker by default, PanglaoDB, Azimuth or your own two-column file of cell type and gene). It writes the per-cell level <code>annot_auto</code> and the per-cluster majority <code>annot_auto_cluster</code> with a confidence. <b>Subtype</b> mode refines one lineage (mononuclear phagocytes, T cells, B cells, endothelial cells).</p>
<p><b>Reading it.</b> The table shows each cluster's label, confidence and reference; the dot plot shows the marker genes behind the labels. Low confidence or mixed labels mean the reference does not cover the tissue or the cluster is a mixture: check the markers and rename by hand. You can merge labels and save the result as a new annotation level. Reference: Aran et al., <i>Nat Immunol</i> 2019 (SingleR); Ianevski et al., <i>Nat Commun</i> 2022 (ScType).</p>$$,
$$<p>细胞注释标签页将聚类映射为细胞类型（METHODS §10）。<b>自动</b>模式以 SingleR 的方式把每个细胞与内置参考（按物种和组织选择：人类造血细胞（DMAP）、人类细胞图谱（HCA）、小鼠 RNA-seq、人类胰腺（Baron））做相关——基于参考标记基因的 Spearman 相关、在相近标签之间微调（阈值 0.05）、剔除得分低于其他细胞 3 个 MAD 以上的标签——并用标记基因列表为聚类打分（默认 CellMarker，可选 PanglaoDB、Azimuth，或您上传的“细胞类型、基因”两列文件）。结果写入按细胞的层级 <code>annot_auto</code> 和按聚类多数的层级 <code>annot_auto_cluster</code>（含置信度）。<b>亚型</b>模式细化某一谱系（单核吞噬细胞、T 细胞、B 细胞、内皮细胞）。</p>
<p><b>解读。</b>表格显示每个聚类的标签、置信度和参考；气泡图显示支持标签的标记基因。置信度低或标签混杂说明参考未覆盖该组织或该聚类是混合群体：请检查标记基因并手动重命名。可以合并标签并另存为新的注释层级。参考文献：Aran 等，<i>Nat Immunol</i> 2019（SingleR）；Ianevski 等，<i>Nat Commun</i> 2022（ScType）。</p>$$, 15),

('doc-vdj-regulons', 'documentation', 'all', 'V(D)J repertoire and TF regulons', 'V(D)J 免疫组库与转录因子调控子',
$$<h3>V(D)J</h3>
<p>Attach the 10x <code>filtered_contig_annotations.csv</code> of each sample (TCR or BCR, detected automatically) and run the VDJ task (METHODS §9). Only productive contigs are kept, one per chain per cell; by default only cells with paired chains count. A clonotype is defined by the V(D)J genes of both chains (alternatives: CDR3 amino acids, V(D)J + CDR3 nucleotides, V(D)J + CDR3 amino acids). Barcodes are matched to the analysis cells (the 10x "-1" suffix is stripped when that matches more cells). Plots: expansion classes Single (1 cell), Medium (2–10) and Large (≥ 11) per sample and on the embedding, the top 5 clonotypes per group, the top 20 V genes per chain, and diversity (chao1, Hill numbers, inverse Simpson, d50). Reference: Borcherding et al., <i>F1000Research</i> 2020 (scRepertoire).</p>
<h3>TF regulation</h3>
<p>A pySCENIC-style regulon analysis (METHODS §8): per cell type, up to 150 cells are sampled; transcription factors of DoRothEA (confidence A–C by default) that are expressed are linked to targets by GRNBoost2-style importances, modules are pruned to targets with DoRothEA evidence, and regulons with at least 5 genes are scored in every cell with AUCell. Plots: the regulon activity heat map per cell type, regulon specificity scores (RSS) with the top regulons per type, and CSI modules (6 by default) of co-active regulons. A regulon such as SPI1(+) high in monocytes means its target genes are co-expressed there. References: Aibar et al., <i>Nat Methods</i> 2017; Van de Sande et al., <i>Nat Protoc</i> 2020; Garcia-Alonso et al., <i>Genome Res</i> 2019 (DoRothEA).</p>$$,
$$<h3>V(D)J</h3>
<p>为每个样本附加 10x 的 <code>filtered_contig_annotations.csv</code>（TCR 或 BCR，自动识别），然后运行 VDJ 任务（METHODS §9）。只保留有效（productive）的 contig，每个细胞每条链一个；默认只统计双链配对的细胞。克隆型默认由两条链的 V(D)J 基因定义（可选：CDR3 氨基酸、V(D)J + CDR3 核苷酸、V(D)J + CDR3 氨基酸）。条形码与分析中的细胞匹配（若去除 10x 的“-1”后缀能匹配更多细胞则自动去除）。图包括：各样本及降维图上的扩增分类 Single（1 个细胞）、Medium（2–10）和 Large（≥ 11）、每组前 5 个克隆型、每条链使用最多的 20 个 V 基因，以及多样性（chao1、Hill 数、逆 Simpson 指数、d50）。参考文献：Borcherding 等，<i>F1000Research</i> 2020（scRepertoire）。</p>
<h3>转录因子调控</h3>
<p>仿 pySCENIC 的调控子分析（METHODS §8）：每种细胞类型抽样最多 150 个细胞；将表达的 DoRothEA 转录因子（默认置信度 A–C）按 GRNBoost2 式的重要性与靶基因关联，模块仅保留有 DoRothEA 证据的靶基因，至少含 5 个基因的调控子用 AUCell 在每个细胞中打分。图包括：各细胞类型的调控子活性热图、调控子特异性得分（RSS）及每种类型的主要调控子、共激活调控子的 CSI 模块（默认 6 个）。例如 SPI1(+) 在单核细胞中高，表示其靶基因在单核细胞中共表达。参考文献：Aibar 等，<i>Nat Methods</i> 2017；Van de Sande 等，<i>Nat Protoc</i> 2020；Garcia-Alonso 等，<i>Genome Res</i> 2019（DoRothEA）。</p>$$, 16)
ON CONFLICT (id) DO UPDATE SET type = EXCLUDED.type, doc_type = EXCLUDED.doc_type, title_en = EXCLUDED.title_en,
  title_zh = EXCLUDED.title_zh, body_en = EXCLUDED.body_en, body_zh = EXCLUDED.body_zh, sort = EXCLUDED.sort, updated_at = now();

-- Order: the self-hosting page after the analysis pages; the seed's subsets chapter after reading the explorer.
UPDATE content_entries SET sort = 30 WHERE id = 'doc-selfhost';
UPDATE content_entries SET sort = 150 WHERE id = 'guide-subsets';

-- FAQ from the error catalogue: what each failure message means and what to do.
INSERT INTO faq_entries (id, question_en, question_zh, answer_en, answer_zh, sort) VALUES
('faq-err-format', 'Upload failed: "the file format could not be recognised" or "required file … was not found".', '上传失败：“无法识别文件格式”或“未找到必需文件……”。',
$$<p>The upload does not contain a complete sample in a supported layout. A 10x matrix needs all three files (<code>matrix.mtx</code>, <code>features.tsv</code>/<code>genes.tsv</code>, <code>barcodes.tsv</code>) in the same folder of the archive; an h5 must be Cell Ranger's <code>filtered_feature_bc_matrix.h5</code>; a table must have genes in rows and cells in columns. Metadata tables alone (for example only a cell-type CSV) are refused with "No data file was uploaded". Re-create the archive with the missing file and upload again; see the guidebook chapter <i>Importing each file format</i>.</p>$$,
$$<p>上传内容不是受支持结构的完整样本。10x 矩阵需要三个文件（<code>matrix.mtx</code>、<code>features.tsv</code>/<code>genes.tsv</code>、<code>barcodes.tsv</code>）位于压缩包的同一目录；h5 文件须为 Cell Ranger 的 <code>filtered_feature_bc_matrix.h5</code>；表格须行为基因、列为细胞。只上传元数据表（例如只有细胞类型 CSV）会提示“没有上传数据文件”。请补齐缺失文件后重新打包上传，参见指南<i>各种文件格式的导入</i>一章。</p>$$, 20),
('faq-err-counts', 'Upload failed: "not an integer count", "negative" or "no raw counts found".', '上传失败：“不是整数计数”“为负值”或“未找到原始计数”。',
$$<p>CellCloud normalises the data itself and needs raw UMI counts. Values with decimals are normalised or log-transformed data, negative values are scaled data. For an h5ad, keep the counts in <code>adata.layers["counts"]</code> (or <code>adata.raw</code>) before normalising and write the file again; for a table, export the count matrix, not the normalised one.</p>$$,
$$<p>细胞云会自行标准化数据，因此需要原始 UMI 计数。含小数的值是标准化或对数转换后的数据，负值是缩放后的数据。对于 h5ad，请在标准化前把计数保存到 <code>adata.layers["counts"]</code>（或 <code>adata.raw</code>）并重新写出文件；对于表格，请导出计数矩阵而不是标准化后的矩阵。</p>$$, 21),
('faq-err-damaged', 'Upload failed: "truncated", "gzip data is corrupt", "archive could not be read" or "files do not belong together".', '上传失败：“文件被截断”“gzip 数据损坏”“无法读取压缩包”或“文件不属于同一样本”。',
$$<p>The file was damaged in transfer or when it was packed, or the three 10x files come from different samples (the matrix has a different number of genes or cells than <code>features.tsv</code> or <code>barcodes.tsv</code> lists). Check the file opens locally (for example <code>gzip -t matrix.mtx.gz</code>), take the three files from the same folder, re-create the archive and upload again.</p>$$,
$$<p>文件在传输或打包时损坏，或三个 10x 文件来自不同样本（矩阵的基因数或细胞数与 <code>features.tsv</code> 或 <code>barcodes.tsv</code> 所列不一致）。请先在本地检查文件能否打开（例如 <code>gzip -t matrix.mtx.gz</code>），从同一目录取三个文件，重新打包后上传。</p>$$, 22),
('faq-err-several', 'Upload failed: "several matrices were found" or the file is "too large".', '上传失败：“发现多个矩阵”或文件“过大”。',
$$<p>One upload is one sample: an archive with several samples (or both raw and filtered matrices) is refused; upload each sample's <i>filtered</i> matrix separately. "Decompression bomb" or "too large to read with the memory available" means the data expands beyond what the server accepts: split it into smaller samples. The largest accepted file size is shown in the message.</p>$$,
$$<p>每次上传为一个样本：包含多个样本（或同时包含原始和过滤后矩阵）的压缩包会被拒绝；请分别上传每个样本的<i>过滤后</i>矩阵。“解压炸弹”或“可用内存不足以读取”表示数据解压后超过服务器的接受范围：请拆分为更小的样本。消息中会给出允许的最大文件大小。</p>$$, 23),
('faq-err-crash', 'Parsing "stopped unexpectedly" — is my file lost?', '解析“意外中断”——文件丢失了吗？',
$$<p>No. The file is kept and the failure was not caused by its content (for example the server restarted). Click <b>Retry</b> in the uploaded files list to parse it again. Only failed uploads can be retried.</p>$$,
$$<p>没有。文件已保留，失败并非由文件内容引起（例如服务器重启）。在已上传文件列表中点击<b>重试</b>即可重新解析。只有解析失败的上传才能重试。</p>$$, 24),
('faq-err-sample-name', 'The sample name is refused, or "name exists".', '样本名称被拒绝，或提示“名称已存在”。',
$$<p>Sample names start with a letter or underscore and then use only letters, digits, underscores, dots or spaces (no Chinese characters or other symbols), at most 100 characters. Samples in one analysis must have different names: rename one of them.</p>$$,
$$<p>样本名称须以字母或下划线开头，之后只能包含字母、数字、下划线、点或空格（不能含中文或其他符号），最多 100 个字符。同一分析中的样本名称不能重复：请重命名其中一个。</p>$$, 25),
('faq-err-cells', 'The analysis failed: a sample has too few or too many cells, or "no cell passes the cell filters".', '分析失败：样本细胞数过少或过多，或“没有细胞通过细胞过滤”。',
$$<p>A sample must have more than 30 and fewer than 100,000 cells. A sample of hundreds of thousands of barcodes is usually an unfiltered matrix: upload <code>filtered_feature_bc_matrix</code>. If all cells of a sample are removed by the filters, the thresholds do not suit it (for example a mitochondrial cutoff of 5 % on a tissue where most cells are above it): go back to <i>Cell filtering</i>, choose Evaluate, widen the gene, UMI or mitochondrial thresholds and submit again.</p>$$,
$$<p>每个样本的细胞数须大于 30 且小于 100,000。数十万个条形码的样本通常是未过滤的矩阵：请上传 <code>filtered_feature_bc_matrix</code>。若某样本的细胞全部被过滤，说明阈值不适合该样本（例如某组织大多数细胞线粒体比例超过 5 %，却使用了 5 % 的阈值）：请回到<i>细胞过滤</i>，选择评估，放宽基因数、UMI 或线粒体阈值后重新提交。</p>$$, 26),
('faq-err-species', 'The analysis failed with "Please enter the correct species", or a task "supports human data only".', '分析失败提示“请输入正确的物种”，或任务提示“仅支持人类数据”。',
$$<p>All samples of one analysis must share the species recorded at upload. Cell-cycle removal and CNV work for human and mouse; cell interactions for human; enrichment for human and mouse, and for other species through an orthologue table when the server has one ("No orthologue table for …" otherwise). In that case convert the genes to human or mouse orthologues before uploading.</p>$$,
$$<p>同一分析中的所有样本须具有上传时记录的同一物种。细胞周期校正和 CNV 适用于人和小鼠；细胞互作仅适用于人；富集分析支持人和小鼠，其他物种在服务器有同源基因表时通过该表映射（否则提示“没有……的同源基因表”），此时请在上传前将基因转换为人或小鼠的同源基因。</p>$$, 27),
('faq-err-memory', 'The job was refused because it "needs about … MiB" of memory.', '任务因“约需 … MiB 内存”而被拒绝。',
$$<p>Each computation runs in a worker with a memory limit, and CellCloud estimates the need before starting so that a job never crashes half way. Select fewer samples or cells (for tasks: lower the cells sampled per group), or ask the administrator to raise <code>WORKER_MEMORY_MB</code>.</p>$$,
$$<p>每项计算都在有内存上限的计算进程中运行，细胞云会在开始前估算所需内存，避免任务中途崩溃。请减少样本或细胞（对于下游任务：减少每组抽样的细胞数），或请管理员调高 <code>WORKER_MEMORY_MB</code>。</p>$$, 28),
('faq-err-gone', '"Sample … is no longer available" or "the parent analysis was deleted".', '提示“样本……已不可用”或“父分析已被删除”。',
$$<p>A sample or parent analysis used by the job was deleted (or is no longer Completed) after the job was created. Upload the sample again, or start the sub-celltype analysis again from an existing result.</p>$$,
$$<p>任务创建后，其使用的样本或父分析被删除（或不再处于已完成状态）。请重新上传样本，或从现有结果重新发起亚细胞类型分析。</p>$$, 29),
('faq-err-groups', 'A task says the annotation level or group does not exist, has only one group, or has too few cells.', '任务提示注释层级或分组不存在、只有一个分组或细胞过少。',
$$<p>Tasks run on an annotation level (by default <code>cluster</code>). The level may have been renamed or deleted, or its groups merged: pick an existing level in the run panel. Comparisons need two non-empty groups; differential expression at least 3 cells per group; some tasks more (the message gives the minimum). Choose larger groups or merge small ones.</p>$$,
$$<p>任务基于某个注释层级运行（默认 <code>cluster</code>）。该层级可能已被重命名、删除或分组已合并：请在运行面板中选择现有的层级。比较分析需要两个非空分组；差异表达每组至少 3 个细胞；部分任务要求更多（消息中会给出最小值）。请选择更大的分组或合并较小的分组。</p>$$, 30),
('faq-err-genes', 'A gene set file is "not valid", or "none of the genes was found".', '基因集文件“无效”，或“所给基因均未找到”。',
$$<p>Gene set files have one gene per line and no header. Genes are matched by symbol (case-sensitive as in the data, for example <code>CD3E</code> in human, <code>Cd3e</code> in mouse); if your data uses Ensembl ids, give Ensembl ids. Check the species of the gene set matches the data.</p>$$,
$$<p>基因集文件每行一个基因，不含表头。基因按基因名匹配（大小写与数据一致，例如人类为 <code>CD3E</code>，小鼠为 <code>Cd3e</code>）；若数据使用 Ensembl ID，请提供 Ensembl ID。请确认基因集的物种与数据一致。</p>$$, 31),
('faq-err-resource', 'A task says "the reference resource … is not installed on this server".', '任务提示“服务器未安装参考资源……”。',
$$<p>Downstream analyses read reference data (CellPhoneDB, gene sets, gene positions, annotation references) from the server's resources folder (<code>CELLCLOUD_RESOURCES_DIR</code>). On a self-hosted instance the administrator must install the named file; on the public service please contact us.</p>$$,
$$<p>下游分析需要从服务器的资源目录（<code>CELLCLOUD_RESOURCES_DIR</code>）读取参考数据（CellPhoneDB、基因集、基因位置、注释参考）。自行部署时需由管理员安装所提示的文件；在公共服务上请联系我们。</p>$$, 32),
('faq-err-timeout', 'A task "did not finish within … minutes" or "failed unexpectedly".', '任务“未能在……分钟内完成”或“意外失败”。',
$$<p>Each task has a time limit. Reduce the work (fewer cells per group, fewer permutations, a subset of cell types) and run it again. An unexpected failure is not caused by your parameters: try again later, and if it repeats, contact us with the analysis name.</p>$$,
$$<p>每个任务都有时间上限。请减少计算量（每组更少的细胞、更少的置换次数、部分细胞类型）后重新运行。意外失败并非由您的参数引起：请稍后重试，若反复出现，请告知我们分析名称。</p>$$, 33),
('faq-err-notfound', 'A page says "Resource does not exist" or "Resource Unavailable".', '页面显示“资源不存在”或“资源不可用”。',
$$<p>"Resource does not exist" means the analysis, subset, task or upload was deleted, or belongs to another user (links to other users' results do not open). "Resource Unavailable" means your plan does not include that feature: request a subscription. "Login status has expired" means you must log in again.</p>$$,
$$<p>“资源不存在”表示该分析、子集、任务或上传已被删除，或属于其他用户（其他用户结果的链接无法打开）。“资源不可用”表示您的套餐不包含该功能：请申请订阅。“登录状态已过期”表示需要重新登录。</p>$$, 34),
('faq-err-deg', '"Cluster DEGs calculation failed" or "Other calculation is in progress".', '“聚类差异基因计算失败”或“其他计算正在进行中”。',
$$<p>Only one calculation of a kind runs per analysis at a time: wait until the running one finishes (refresh the tab). If a calculation failed, its reason is shown in the task history; fix the groups if the reason names them, otherwise start it again.</p>$$,
$$<p>同一分析同一时间只能运行一个同类计算：请等待正在运行的计算结束（刷新标签页）。计算失败时，任务历史中会显示原因；若原因涉及分组，请修正分组，否则重新发起即可。</p>$$, 35),
('faq-downloads', 'My download request is still "Requested", or the download has expired.', '下载申请一直处于“已申请”，或下载已过期。',
$$<p>Without free downloads in your plan, an administrator approves each request; you are notified when it is approved (or declined with a reason). Approved files stay valid for 7 days and are then deleted: request them again from the result.</p>$$,
$$<p>若套餐不含免费下载，每个申请需由管理员审批；通过（或附理由拒绝）时会通知您。审批通过的文件有效期为 7 天，之后被删除：请从分析结果重新申请。</p>$$, 36)
ON CONFLICT (id) DO UPDATE SET question_en = EXCLUDED.question_en, question_zh = EXCLUDED.question_zh,
  answer_en = EXCLUDED.answer_en, answer_zh = EXCLUDED.answer_zh, sort = EXCLUDED.sort;
