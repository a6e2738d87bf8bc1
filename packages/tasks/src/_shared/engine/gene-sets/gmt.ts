import { TaskError } from '@cellcloud/engine/tasks/kit';

/** One gene set of a GMT file, with clusterProfiler-style ID / Description split out of the name. */
export interface GeneSet {
  id: string;
  description: string;
  genes: string[];
}

/**
 * Splits a GMT name into ID and Description for the formats of the shipped libraries:
 * Enrichr GO `term (GO:0006954)`, Enrichr Reactome `title R-HSA-123`, WikiPathways
 * `title%WikiPathways_20230410%WP123%Homo sapiens`; otherwise the name is the ID and the
 * description column (when it is not a URL or empty) the Description.
 */
export function splitTermName(name: string, description: string): { id: string; description: string } {
  const go = /^(.*) \((GO:\d+)\)$/.exec(name);
  if (go) return { id: go[2]!, description: go[1]! };
  const wp = /^(.*?)%WikiPathways_[^%]*%(WP\d+)%/.exec(name);
  if (wp) return { id: wp[2]!, description: wp[1]! };
  const rt = /^(.*) (R-[A-Z]{3}-\d+)$/.exec(name);
  if (rt) return { id: rt[2]!, description: rt[1]! };
  const d = description.trim();
  return { id: name, description: d && !/^https?:\/\//.test(d) && d !== name ? d : name };
}

/**
 * Parses GMT text (name TAB description TAB gene…; one set per line). Empty gene fields are
 * skipped, duplicate genes within a set kept once. Invalid input → TaskError enrichment.gmtInvalid.
 */
export function parseGmt(text: string): GeneSet[] {
  const sets: GeneSet[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (!line.trim() || line.startsWith('#')) return;
    const f = line.split('\t');
    if (f.length < 3) {
      throw new TaskError('enrichment.gmtInvalid', `line ${i + 1} has fewer than 3 tab-separated fields`, {
        detail: `line ${i + 1}: < 3 tab-separated fields`,
      });
    }
    const genes = [
      ...new Set(
        f
          .slice(2)
          .map((g) => g.trim())
          .filter(Boolean),
      ),
    ];
    const { id, description } = splitTermName(f[0]!.trim(), f[1] ?? '');
    sets.push({ id, description, genes });
  });
  if (!sets.length)
    throw new TaskError('enrichment.gmtInvalid', 'no gene set found', { detail: 'no gene set found' });
  if (text.includes('\u0000'))
    throw new TaskError('enrichment.gmtInvalid', 'binary content', { detail: 'binary content' });
  return sets;
}
