import { TaskError } from '@cellcloud/engine/tasks/kit';

/** Largest gene set accepted from a file or typed list. */
export const MAX_GENE_SET_SIZE = 5000;

const GENE = /^[A-Za-z0-9][A-Za-z0-9._\-:/@()]*$/;

const bad = (detail: string) =>
  new TaskError(
    'common.geneSetFile',
    `The gene set file is not valid: ${detail}. Provide one gene per line, no header.`,
    {
      detail,
    },
  );

/**
 * A gene set csv as docs/product/validation.md defines it: one gene per line, no header. Tolerated: a UTF-8 BOM,
 * CRLF line ends, surrounding spaces or quotes, blank lines, trailing commas. Refused (TaskError
 * `common.geneSetFile` naming the line): binary content, a line with several values, a value that
 * is not a gene name, no gene at all, more than MAX_GENE_SET_SIZE genes. Duplicates are dropped.
 */
export function parseGeneSetFile(bytes: Uint8Array): string[] {
  if (bytes.length === 0) throw bad('the file is empty');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw bad('it is not a UTF-8 text file');
  }
  if (text.includes('\u0000')) throw bad('it is not a text file');
  text = text.replace(/^\uFEFF/, '');
  const genes: string[] = [];
  const seen = new Set<string>();
  const lines = text.split(/\r\n|\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const fields = lines[i]!.split(/[,;\t]/)
      .map((f) =>
        f
          .trim()
          .replace(/^"(.*)"$/, '$1')
          .trim(),
      )
      .filter((f) => f !== '');
    if (fields.length === 0) continue;
    if (fields.length > 1)
      throw bad(`line ${i + 1} has ${fields.length} values ("${fields.slice(0, 2).join('", "')}")`);
    const g = fields[0]!;
    if (!GENE.test(g) || g.length > 100) throw bad(`line ${i + 1} ("${g.slice(0, 40)}") is not a gene name`);
    if (!seen.has(g)) {
      seen.add(g);
      genes.push(g);
    }
    if (genes.length > MAX_GENE_SET_SIZE) throw bad(`it has more than ${MAX_GENE_SET_SIZE} genes`);
  }
  if (genes.length === 0) throw bad('it contains no gene');
  return genes;
}
