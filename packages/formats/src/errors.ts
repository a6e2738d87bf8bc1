/**
 * Errors of the readers and writers. Every error has a stable `code` the server translates
 * (`formatErrorMessages` holds the English and Chinese templates; `{name}` placeholders are filled
 * from `params`) and an English `message` for logs and the CLI.
 */
export const formatErrorMessages = {
  'source.missing_file': {
    en: '{file}: required file "{expected}" was not found. Upload a folder or archive that contains it.',
    zh: '{file}：缺少必需的文件“{expected}”。请上传包含该文件的文件夹或压缩包。',
  },
  'format.unknown': {
    en: '{file}: the file format could not be recognised. Supported: 10x MTX folder or zip/tar, 10x HDF5 (.h5), AnnData (.h5ad), dense TSV/CSV, CeleScope output.',
    zh: '{file}：无法识别文件格式。支持：10x MTX 文件夹或 zip/tar 压缩包、10x HDF5（.h5）、AnnData（.h5ad）、TSV/CSV 稠密矩阵、CeleScope 输出目录。',
  },
  'gzip.corrupt': {
    en: '{file}: the gzip data is corrupt or incomplete ({detail}). Re-compress or re-upload the file.',
    zh: '{file}：gzip 数据损坏或不完整（{detail}）。请重新压缩或重新上传该文件。',
  },
  'archive.corrupt': {
    en: '{file}: the archive could not be read ({detail}). Re-create the zip/tar file and upload it again.',
    zh: '{file}：无法读取压缩包（{detail}）。请重新打包 zip/tar 文件后再上传。',
  },
  'mtx.bad_header': {
    en: '{file}, line {line}: invalid MatrixMarket header ({detail}). The file must start with "%%MatrixMarket matrix coordinate integer general" followed by "rows cols entries".',
    zh: '{file} 第 {line} 行：MatrixMarket 文件头无效（{detail}）。文件应以“%%MatrixMarket matrix coordinate integer general”开头，随后为“行数 列数 条目数”。',
  },
  'mtx.bad_entry': {
    en: '{file}, line {line}: expected "row col value", found "{text}".',
    zh: '{file} 第 {line} 行：应为“行 列 值”，实际为“{text}”。',
  },
  'mtx.index_out_of_range': {
    en: '{file}, line {line}: entry ({row}, {col}) is outside the declared {rows} × {cols} matrix.',
    zh: '{file} 第 {line} 行：条目 ({row}, {col}) 超出声明的 {rows} × {cols} 矩阵范围。',
  },
  'mtx.truncated': {
    en: '{file}: the file is truncated: the header declares {expected} entries but only {found} were found. Upload the complete file.',
    zh: '{file}：文件不完整：文件头声明 {expected} 个条目，实际只有 {found} 个。请上传完整文件。',
  },
  'mtx.too_many_entries': {
    en: '{file}, line {line}: more entries than the {expected} declared in the header.',
    zh: '{file} 第 {line} 行：条目数多于文件头声明的 {expected} 个。',
  },
  'mtx.gene_count_mismatch': {
    en: '{file}: the matrix has {matrixGenes} gene rows but {listFile} lists {listed} genes. The files do not belong together.',
    zh: '{file}：矩阵有 {matrixGenes} 个基因行，但 {listFile} 列出 {listed} 个基因。这些文件不属于同一数据集。',
  },
  'mtx.barcode_count_mismatch': {
    en: '{file}: the matrix has {matrixCells} cell columns but {listFile} lists {listed} barcodes. The files do not belong together.',
    zh: '{file}：矩阵有 {matrixCells} 个细胞列，但 {listFile} 列出 {listed} 个条形码。这些文件不属于同一数据集。',
  },
  'counts.non_integer': {
    en: '{file} ({where}): value {value} is not an integer count. Upload raw UMI counts, not normalized data.',
    zh: '{file}（{where}）：值 {value} 不是整数计数。请上传原始 UMI 计数，而不是标准化后的数据。',
  },
  'counts.negative': {
    en: '{file} ({where}): value {value} is negative. Upload raw UMI counts, not scaled data.',
    zh: '{file}（{where}）：值 {value} 为负数。请上传原始 UMI 计数，而不是缩放后的数据。',
  },
  'h5.open_failed': {
    en: '{file}: not a readable HDF5 file ({detail}).',
    zh: '{file}：不是可读取的 HDF5 文件（{detail}）。',
  },
  'h5.missing_field': {
    en: '{file}: required field "{field}" is missing.',
    zh: '{file}：缺少必需字段“{field}”。',
  },
  'h5.bad_field': {
    en: '{file}: field "{field}" is invalid ({detail}).',
    zh: '{file}：字段“{field}”无效（{detail}）。',
  },
  'h5ad.normalized_only': {
    en: '{file}: no raw counts found. X holds normalized or scaled values ({detail}) and neither layers["counts"] nor raw.X holds integer counts. Save the raw counts (e.g. adata.layers["counts"]) and upload again.',
    zh: '{file}：未找到原始计数。X 为标准化或缩放后的数据（{detail}），layers["counts"] 与 raw.X 中也没有整数计数。请保存原始计数（例如 adata.layers["counts"]）后重新上传。',
  },
  'text.empty': {
    en: '{file}: the file has no data rows.',
    zh: '{file}：文件没有数据行。',
  },
  'text.bad_row': {
    en: '{file}, line {line}: expected {expected} fields, found {found}.',
    zh: '{file} 第 {line} 行：应有 {expected} 个字段，实际为 {found} 个。',
  },
  'text.bad_value': {
    en: '{file}, line {line}, column {column}: "{value}" is not a number.',
    zh: '{file} 第 {line} 行第 {column} 列：“{value}”不是数字。',
  },
  'counts.not_finite': {
    en: '{file} ({where}): value {value} is not a finite number within the range of a count (at most 3.4e38). Check the file: it may be damaged or hold log/scaled values.',
    zh: '{file}（{where}）：值 {value} 不是计数范围内的有限数字（最大 3.4e38）。请检查文件：文件可能已损坏或包含对数/缩放后的数值。',
  },
  'matrix.empty': {
    en: '{file}: the matrix has {genes} genes × {cells} cells: there is nothing to analyse. Upload a matrix with cells and genes.',
    zh: '{file}：矩阵为 {genes} 个基因 × {cells} 个细胞，没有可分析的数据。请上传包含细胞和基因的矩阵。',
  },
  'source.ambiguous': {
    en: '{file}: {count} matrices were found ({names}). Upload one sample per upload (or the 10x folder with filtered_feature_bc_matrix).',
    zh: '{file}：找到 {count} 个矩阵（{names}）。每次上传请只包含一个样本（或含 filtered_feature_bc_matrix 的 10x 输出目录）。',
  },
  'limits.decompressed_too_large': {
    en: '{file}: the file expands to more than {max} when decompressed. It is too large or not a genuine data file (decompression bomb); upload the data itself, split into smaller samples.',
    zh: '{file}：解压后超过 {max}。文件过大或不是真实的数据文件（解压炸弹）；请上传数据本身，或拆分为较小的样本。',
  },
  'limits.declared_too_large': {
    en: '{file}: the file declares {declared} {what}, more than it can hold or than this server accepts (at most {max}). The file is damaged or too large.',
    zh: '{file}：文件声明了 {declared} 个{what}，超过文件实际可容纳的数量或本服务器的上限（最多 {max}）。文件已损坏或过大。',
  },
  'h5.damaged': {
    en: '{file}: the file is damaged or not HDF5 ({detail}). Re-export it (e.g. adata.write_h5ad) and upload it again.',
    zh: '{file}：文件已损坏或不是 HDF5 文件（{detail}）。请重新导出（例如 adata.write_h5ad）后再上传。',
  },
  'data.too_large': {
    en: '{file}: too large to read with the memory available ({detail}). Split the data into smaller samples.',
    zh: '{file}：数据过大，可用内存不足以读取（{detail}）。请将数据拆分为较小的样本。',
  },
  'store.corrupt': {
    en: '{file}: the count store is damaged or incomplete ({detail}). Import the data again to rebuild it.',
    zh: '{file}：计数存储文件已损坏或不完整（{detail}）。请重新导入数据以重建。',
  },
  'write.invalid_input': {
    en: 'Cannot write {file}: {detail}.',
    zh: '无法写入 {file}：{detail}。',
  },
} as const satisfies Record<string, { en: string; zh: string }>;

export type FormatErrorCode = keyof typeof formatErrorMessages;
export const formatErrorCodes = Object.keys(formatErrorMessages) as FormatErrorCode[];
export type FormatErrorParams = Record<string, string | number>;

/** Fill `{name}` placeholders of the template for `code` in the given language. */
export function renderFormatError(
  code: FormatErrorCode,
  params: FormatErrorParams,
  lang: 'en' | 'zh' = 'en',
): string {
  const template: string = formatErrorMessages[code][lang];
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}

export class FormatError extends Error {
  readonly code: FormatErrorCode;
  readonly params: FormatErrorParams;

  constructor(code: FormatErrorCode, params: FormatErrorParams) {
    super(renderFormatError(code, params, 'en'));
    this.name = 'FormatError';
    this.code = code;
    this.params = params;
  }
}

export function isFormatError(e: unknown): e is FormatError {
  return e instanceof FormatError;
}
