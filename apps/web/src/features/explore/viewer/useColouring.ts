import { useEffect, useState } from 'react';
import { NOT_IN_SUBSET, type SubsetView } from '@cellcloud/contracts/explore';
import type { ArtifactClient } from '../data/ArtifactClient';
import type { ObsColumn } from '../data/protocol';
import { categoryColours, type PaletteName } from './palettes';
import type { Colouring } from './scatterPoints';

export type ColourBy =
  | { kind: 'obs'; key: string }
  | { kind: 'gene'; gene: number; symbol: string; layer: 'counts' | 'normalized' }
  | { kind: 'subset'; subset: SubsetView };

/** Loads a subset's per-cell codes (u32, NOT_IN_SUBSET for cells outside it). */
export type SubsetCodesLoader = (subsetId: string) => Promise<Uint32Array>;

const OUTSIDE_COLOUR = '#d9d9d9';

export type LegendModel =
  | { kind: 'categorical'; key: string; labels: string[]; colours: string[]; counts: number[] }
  | { kind: 'continuous'; title: string; max: number }
  | null;

export interface ColouringState {
  colouring: Colouring;
  legend: LegendModel;
  column: ObsColumn | null;
  loading: boolean;
  error: string | null;
}

function counts(codes: Uint32Array, n: number): number[] {
  const c = new Array<number>(n).fill(0);
  for (let i = 0; i < codes.length; i += 1) c[codes[i]!]! += 1;
  return c;
}

/**
 * Loads what a colour choice needs (an obs column or one gene, on demand, through the worker) and
 * turns it into a Colouring for the viewer plus a legend. `overrides` are custom colours per
 * annotation key (label index → #RRGGBB).
 */
export function useColouring(
  client: ArtifactClient,
  by: ColourBy,
  paletteName: PaletteName,
  overrides: ReadonlyMap<number, string>,
  loadSubset: SubsetCodesLoader | null,
  outsideLabel: string,
): ColouringState {
  const [state, setState] = useState<ColouringState>({
    colouring: { kind: 'none' },
    legend: null,
    column: null,
    loading: true,
    error: null,
  });
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    const load = async (): Promise<ColouringState> => {
      if (by.kind === 'gene') {
        const g = await client.gene(by.layer, by.gene, false);
        return {
          colouring: { kind: 'continuous', values: g.values, max: g.max, nz: g.nz },
          legend: { kind: 'continuous', title: by.symbol, max: g.max },
          column: null,
          loading: false,
          error: null,
        };
      }
      if (by.kind === 'subset') {
        if (!loadSubset) throw new Error('subsets need a dataset id');
        const raw = await loadSubset(by.subset.id);
        const n = by.subset.labels.length;
        const codes = raw.map((c) => (c === NOT_IN_SUBSET ? n : c));
        const own = new Map(by.subset.colours.flatMap((c, i) => (c ? [[i, c] as [number, string]] : [])));
        const outside = codes.some((c) => c === n);
        const colours = [...categoryColours(paletteName, n, own), ...(outside ? [OUTSIDE_COLOUR] : [])];
        const labels = [...by.subset.labels, ...(outside ? [outsideLabel] : [])];
        const column: ObsColumn = { kind: 'categorical', key: `subset:${by.subset.id}`, labels, codes };
        return {
          colouring: { kind: 'categorical', codes, colours },
          legend: {
            kind: 'categorical',
            key: column.key,
            labels,
            colours,
            counts: counts(codes, labels.length),
          },
          column,
          loading: false,
          error: null,
        };
      }
      const col = await client.obs(by.key);
      if (col.kind === 'numeric') {
        return {
          colouring: { kind: 'continuous', values: col.values, max: col.max },
          legend: { kind: 'continuous', title: col.key, max: col.max },
          column: col,
          loading: false,
          error: null,
        };
      }
      const colours = categoryColours(paletteName, col.labels.length, overrides);
      return {
        colouring: { kind: 'categorical', codes: col.codes, colours },
        legend: {
          kind: 'categorical',
          key: col.key,
          labels: col.labels,
          colours,
          counts: counts(col.codes, col.labels.length),
        },
        column: col,
        loading: false,
        error: null,
      };
    };
    load().then(
      (s) => live && setState(s),
      (e: unknown) =>
        live &&
        setState((s) => ({ ...s, loading: false, error: e instanceof Error ? e.message : String(e) })),
    );
    return () => {
      live = false;
    };
  }, [client, by, paletteName, overrides, loadSubset, outsideLabel]);
  return state;
}
