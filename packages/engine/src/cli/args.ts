/** Parsed `cellcloud analyze <input…> --out <dir> [--params params.json]`. */
export interface AnalyzeArgs {
  inputs: string[];
  out: string;
  params?: string;
  /** `--obs <csv|tsv>` (repeatable): per-cell columns attached as annotation levels (issue 13). */
  obs: string[];
  quiet: boolean;
  /** `--timings`: per-step wall and CPU seconds, GC pauses and RSS on stderr at the end. */
  timings: boolean;
  /** `--out-of-core` / `--in-memory`: the path asked for; undefined: chosen by size (cli/out-of-core.ts). */
  outOfCore?: boolean;
}

export const USAGE = `Usage: cellcloud analyze <input…> --out <dir> [--params params.json] [--obs cells.csv] [--quiet] [--timings]
       [--out-of-core | --in-memory]

Runs the standard single-cell pipeline. Each input (a 10x folder or archive, .h5, .h5ad, dense
.tsv/.csv, or a CeleScope output folder) is one sample named after its file or folder. Writes
<dir>/analysis.h5ad, <dir>/markers.csv and the explorer artifacts under <dir>/artifacts/.
--obs attaches per-cell columns (first column the barcode, header optional, comma or tab) as
annotation levels; barcodes that match no cell are reported. --timings prints wall and CPU seconds,
garbage-collection pauses and RSS per step at the end. --out-of-core writes each input to a count
store in a temporary folder and analyses it from there with bounded memory (the default from
50,000 input cells in 10x MTX folders, unless the parameters ask for a step it does not have);
--in-memory keeps everything in memory.`;

export class UsageError extends Error {}

export function parseArgs(argv: string[]): AnalyzeArgs {
  const [command, ...rest] = argv;
  if (command !== 'analyze')
    throw new UsageError(command ? `Unknown command "${command}".` : 'No command given.');
  const inputs: string[] = [];
  let out: string | undefined;
  let params: string | undefined;
  let quiet = false;
  let timings = false;
  let outOfCore: boolean | undefined;
  const obs: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--out' || a === '-o') out = rest[++i];
    else if (a === '--params' || a === '-p') params = rest[++i];
    else if (a === '--quiet' || a === '-q') quiet = true;
    else if (a === '--timings') timings = true;
    else if (a === '--out-of-core') outOfCore = true;
    else if (a === '--in-memory') outOfCore = false;
    else if (a === '--obs') obs.push(rest[++i] ?? '');
    else if (a.startsWith('-')) throw new UsageError(`Unknown option "${a}".`);
    else inputs.push(a);
  }
  if (inputs.length === 0) throw new UsageError('Give at least one input (one per sample).');
  if (!out) throw new UsageError('Give the output directory with --out <dir>.');
  return { inputs, out, params, obs, quiet, timings, ...(outOfCore !== undefined ? { outOfCore } : {}) };
}

/** Sample name from a path: its base name without data-file extensions. */
export function sampleName(p: string): string {
  const base =
    p
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() ?? p;
  return (
    base.replace(/\.(tar\.gz|tgz|tar|zip|h5ad|h5|mtx\.gz|mtx|tsv\.gz|csv\.gz|txt\.gz|tsv|csv|txt)$/i, '') ||
    base
  );
}
