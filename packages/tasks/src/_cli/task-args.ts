import { UsageError } from '@cellcloud/engine/cli/kit';

/** Parsed `cellcloud task <name> <result dir|analysis.h5ad> --out <dir> [options] [--<param> value …]`. */
export interface TaskArgs {
  task: string;
  input: string;
  out: string;
  params?: string;
  groupBy?: string;
  obs: string[];
  quiet: boolean;
  /** Other `--<kebab-name> value` flags by camelCase name (params, or uploads for file fields). */
  flags: Record<string, string>;
}

export const TASK_USAGE = `Usage: cellcloud task <name> <result dir|analysis.h5ad> --out <dir> [--params p.json]
                      [--groupby <annotation level>] [--obs <labels.csv|tsv>] [--quiet] [--<param> <value> …]

Runs one downstream analysis task on an analysis result (a folder written by \`cellcloud analyze\`,
or its analysis.h5ad). --obs adds per-cell columns (first column = barcode, header optional, comma
or tab separated). --<param> sets one parameter (kebab-case of the task's parameter name; JSON
values such as 3, true or ["a","b"] are parsed, group specs as 'level=v1,v2;other=v'); a task's
file parameters (e.g. --gene-set genes.csv) are read from files. Writes under --out: summary.json,
tables/<name>.csv, obs/<key>.*, data/<name>, and outputs.json last.
Reference resources are read from CELLCLOUD_RESOURCES_DIR (default ../shared/data beside the checkout).`;

const camel = (s: string) => s.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export function parseTaskArgs(rest: string[]): TaskArgs {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  const obs: string[] = [];
  let out: string | undefined;
  let params: string | undefined;
  let groupBy: string | undefined;
  let quiet = false;
  const value = (i: number, flag: string): string => {
    const v = rest[i];
    if (v === undefined) throw new UsageError(`${flag} needs a value.`);
    return v;
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--out' || a === '-o') out = value(++i, a);
    else if (a === '--params' || a === '-p') params = value(++i, a);
    else if (a === '--groupby' || a === '--group-by') groupBy = value(++i, a);
    else if (a === '--obs') obs.push(value(++i, a));
    else if (a === '--quiet' || a === '-q') quiet = true;
    else if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      if (eq > 0) flags[camel(a.slice(2, eq))] = a.slice(eq + 1);
      else flags[camel(a.slice(2))] = value(++i, a);
    } else if (a.startsWith('-') && a !== '-') throw new UsageError(`Unknown option "${a}".`);
    else positional.push(a);
  }
  const [task, input, ...extra] = positional;
  if (!task) throw new UsageError('Give the task name.');
  if (!input) throw new UsageError('Give the result folder or its analysis.h5ad.');
  if (extra.length) throw new UsageError(`Unexpected argument "${extra[0]}".`);
  if (!out) throw new UsageError('Give the output directory with --out <dir>.');
  return { task, input, out, params, groupBy, obs, quiet, flags };
}

/** A flag's text as a parameter value: JSON when it parses (numbers, booleans, arrays), else the string. */
export function flagValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
