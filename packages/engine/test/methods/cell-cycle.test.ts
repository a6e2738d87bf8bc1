import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import { parseCellCycleGenes, scoreCellCycle } from '../../src/methods/cell-cycle';
import { regressOut } from '../../src/methods/regress-out';
import { Random } from '../../src/methods/random';
import { fromDenseColumns } from './fixtures';

const CC_FILE = 'cell_cycle/tirosh2016_cell_cycle_genes_human.csv';

describe.skipIf(!hasSharedData(CC_FILE))('cell-cycle gene lists', () => {
  it('parses the Tirosh list (43 S, 54 G2M, with the 2019 renames as aliases)', () => {
    const genes = parseCellCycleGenes(readFileSync(sharedData(CC_FILE)!, 'utf8'));
    expect(genes.s).toContain('MCM5');
    expect(genes.s).toContain('MLF1IP');
    expect(genes.s).toContain('CENPU');
    expect(genes.s.length).toBe(44);
    expect(genes.g2m.length).toBe(56);
  });
});

describe('parseCellCycleGenes', () => {
  it('reads the s.genes / g2m.genes row format and rejects garbage', () => {
    expect(parseCellCycleGenes('s.genes\tMcm5,Pcna\ng2m.genes\tHmgb2,Cdk1\n')).toEqual({
      s: ['Mcm5', 'Pcna'],
      g2m: ['Hmgb2', 'Cdk1'],
    });
    expect(() => parseCellCycleGenes('hello\nworld')).toThrow(/unrecognised line/);
  });
});

describe('scoreCellCycle', () => {
  it('assigns S to cells with high S genes, G2M to high G2M genes, G1 to neither', () => {
    const rng = new Random(1);
    const nGenes = 1200;
    // 30 S genes (every 20th gene) and 30 G2M genes (offset 10) spread over the expression range
    const kindOf = (g: number) => (g < 600 && g % 20 === 0 ? 'S' : g < 600 && g % 20 === 10 ? 'G' : 'X');
    const symbols = Array.from({ length: nGenes }, (_, g) => `${kindOf(g)}${g}`);
    const baseMean = Float64Array.from({ length: nGenes }, () => 0.2 + 2 * rng.uniform());
    const columns: Float64Array[] = [];
    const truth: string[] = [];
    for (let c = 0; c < 300; c++) {
      const kind = c < 100 ? 'S' : c < 200 ? 'G2M' : 'G1';
      truth.push(kind);
      const col = new Float64Array(nGenes);
      for (let g = 0; g < nGenes; g++) {
        let mean = baseMean[g];
        if (kind === 'S' && kindOf(g) === 'S') mean += 1.5;
        if (kind === 'G2M' && kindOf(g) === 'G') mean += 1.5;
        const v = mean + 0.4 * rng.normal();
        col[g] = v > 0.5 ? v : 0;
      }
      columns.push(col);
    }
    const logNorm = fromDenseColumns(columns, nGenes);
    const genes = {
      s: symbols.filter((x) => x.startsWith('S')).map((x) => x.toLowerCase()),
      g2m: symbols.filter((x) => x.startsWith('G')).concat(['NOT_THERE']),
    };
    const res = scoreCellCycle(logNorm, symbols, genes, { seed: 0 });
    expect(res.sGenesFound).toBe(30);
    expect(res.g2mGenesFound).toBe(30);
    let correct = 0;
    res.phase.forEach((p, c) => (correct += p === truth[c] ? 1 : 0));
    const confusion: Record<string, number> = {};
    res.phase.forEach((p, c) => (confusion[`${truth[c]}->${p}`] = (confusion[`${truth[c]}->${p}`] ?? 0) + 1));
    console.log(`[cell cycle synthetic] ${correct}/300 phases correct`, JSON.stringify(confusion));
    expect(correct).toBeGreaterThan(280);
    expect(() => scoreCellCycle(logNorm, symbols, { s: ['MCM5'], g2m: ['CDK1'] })).toThrow(
      /found 0 S and 0 G2M genes/,
    );
  });
});

describe('regressOut', () => {
  it('returns least-squares residuals on intercept + covariates', () => {
    const rng = new Random(3);
    const n = 200;
    const f = 3;
    const s = Float64Array.from({ length: n }, () => rng.normal());
    const g2m = Float64Array.from({ length: n }, () => rng.normal());
    const noise = Float64Array.from({ length: n * f }, () => 0.1 * rng.normal());
    const values = new Float32Array(n * f);
    for (let c = 0; c < n; c++) {
      values[c * f] = 5 + 2 * s[c] - g2m[c] + noise[c * f];
      values[c * f + 1] = 1 + noise[c * f + 1];
      values[c * f + 2] = 3 * g2m[c] + noise[c * f + 2];
    }
    const res = regressOut(values, n, f, [s, g2m]);
    for (let j = 0; j < f; j++) {
      let mean = 0;
      let dotS = 0;
      let dotG = 0;
      let ss = 0;
      for (let c = 0; c < n; c++) {
        const r = res[c * f + j];
        mean += r / n;
        dotS += r * s[c];
        dotG += r * g2m[c];
        ss += r * r;
      }
      expect(Math.abs(mean)).toBeLessThan(1e-5);
      expect(Math.abs(dotS)).toBeLessThan(1e-3);
      expect(Math.abs(dotG)).toBeLessThan(1e-3);
      expect(Math.sqrt(ss / n)).toBeLessThan(0.12); // only the noise is left
    }
    expect(() => regressOut(values, n, f, [new Float64Array(3)])).toThrow(/covariates\[0\].*length 3/);
  });
});
