/**
 * Lineages a reference may not have (the HCA profiles have no platelets / megakaryocytes): when the
 * marker-based call of a cluster is such a lineage, the reference lacks it, and the reference-based
 * labels of the cluster do not agree (majority below `minAgreement`), the cluster's cells take the
 * lineage's label. The reference cannot name a type it does not contain; its low agreement on that
 * cluster is the sign the type is there, and the marker call names it.
 */
export const REFERENCE_GAP_LINEAGES = [
  { label: 'Megakaryocyte', marker: /megakaryocyte|platelet/i, inReference: /megakaryocyte|platelet/i },
] as const;

export interface GapFill {
  /** Per cell: the labels after filling. */
  label: string[];
  /** Clusters relabelled, with the lineage label they got. */
  filled: { cluster: string; label: string; agreement: number }[];
}

export function fillReferenceGaps(
  labels: readonly string[],
  cluster: readonly string[],
  markerCalls: ReadonlyMap<string, { label: string }> | undefined,
  referenceLabels: readonly string[],
  minAgreement = 0.6,
): GapFill {
  const out = [...labels];
  const filled: GapFill['filled'] = [];
  if (!markerCalls) return { label: out, filled };
  const gaps = REFERENCE_GAP_LINEAGES.filter((g) => !referenceLabels.some((l) => g.inReference.test(l)));
  if (!gaps.length) return { label: out, filled };
  const counts = new Map<string, Map<string, number>>();
  cluster.forEach((g, i) => {
    let m = counts.get(g);
    if (!m) counts.set(g, (m = new Map()));
    m.set(labels[i]!, (m.get(labels[i]!) ?? 0) + 1);
  });
  const fillWith = new Map<string, string>();
  for (const [g, m] of counts) {
    const call = markerCalls.get(g);
    const gap = call && gaps.find((x) => x.marker.test(call.label));
    if (!gap) continue;
    let total = 0;
    let best = 0;
    for (const n of m.values()) {
      total += n;
      best = Math.max(best, n);
    }
    const agreement = best / total;
    if (agreement >= minAgreement) continue;
    fillWith.set(g, gap.label);
    filled.push({ cluster: g, label: gap.label, agreement });
  }
  cluster.forEach((g, i) => {
    const l = fillWith.get(g);
    if (l) out[i] = l;
  });
  return { label: out, filled };
}
