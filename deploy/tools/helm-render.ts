import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { Renderer } from './helm/evaluator';
import { TemplateError, type Value } from './helm/lexer';
import { parseTemplate, type Node } from './helm/parser';

/**
 * Renders a Helm chart without Helm, for the chart test and for clusters whose operators apply
 * plain manifests (`npx tsx deploy/tools/helm-render.ts deploy/helm/cellcloud -f my-values.yaml`).
 * No Helm renderer exists on npm and no Helm binary is reachable from these machines, so this is
 * Go's text/template as Helm uses it, restricted to what deploy/helm/cellcloud needs:
 * actions with `{{-`/`-}}` trimming and comments, pipelines, fields, variables, parentheses,
 * if / else if / else, range (lists and maps, sorted keys), with, define / include / template,
 * and the Helm/Sprig functions listed in FUNCS. Values follow Helm's types: numbers read from
 * values files are float64 (so `printf "%d"` of one is Go's `%!d(float64=…)`), `add`/`mul`/`sub`/
 * `div` give int64 (BigInt here), missing values print as nothing. Anything else is an error, not
 * a silent difference. On a real cluster use `helm` itself (deploy/README.md).
 *
 * helm/lexer.ts tokenizes actions, helm/parser.ts builds the template tree, helm/evaluator.ts
 * executes it (values, functions); this file loads a chart and renders its templates.
 */

// ---------------------------------------------------------------- charts

function isObject(v: Value): v is Record<string, Value> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Helm's coalescing of values: maps merge key by key, anything else replaces. */
export function mergeValues(base: Value, over: Value): Value {
  if (!isObject(base) || !isObject(over)) return over === undefined ? base : over;
  const out: Record<string, Value> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = mergeValues(base[k], v);
  return out;
}

export interface RenderOptions {
  releaseName?: string;
  namespace?: string;
  revision?: number;
  values?: Record<string, Value>;
}

export interface RenderedManifest {
  template: string;
  doc: Record<string, Value>;
}

/** Renders every template of the chart and parses the YAML documents (empty ones dropped). */
export function renderChart(chartDir: string, opts: RenderOptions = {}): RenderedManifest[] {
  const chart = YAML.parse(readFileSync(path.join(chartDir, 'Chart.yaml'), 'utf8')) as Record<string, Value>;
  const defaults = YAML.parse(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8')) as Record<
    string,
    Value
  >;
  const values = mergeValues(defaults, opts.values ?? {});
  const capitalised = Object.fromEntries(
    Object.entries(chart).map(([k, v]) => [k[0]!.toUpperCase() + k.slice(1), v]),
  );
  const top = {
    Values: values,
    Chart: capitalised,
    Release: {
      Name: opts.releaseName ?? 'cellcloud',
      Namespace: opts.namespace ?? 'default',
      Revision: BigInt(opts.revision ?? 1),
      Service: 'Helm',
      IsInstall: true,
      IsUpgrade: false,
    },
    Capabilities: { KubeVersion: { Version: 'v1.31.0' } },
  };
  const dir = path.join(chartDir, 'templates');
  const files = readdirSync(dir)
    .filter((f) => /\.(ya?ml|tpl)$/.test(f))
    .sort();
  const parsed = files.map((f) => ({
    f,
    p: parseTemplate(readFileSync(path.join(dir, f), 'utf8'), `templates/${f}`),
  }));
  const defines = new Map<string, Node[]>();
  for (const { p } of parsed) for (const [k, v] of p.defines) defines.set(k, v);
  const r = new Renderer(defines);
  const out: RenderedManifest[] = [];
  for (const { f, p } of parsed) {
    if (f.startsWith('_')) continue;
    const text = r.exec(p.nodes, top, [new Map([['$', top]])]);
    for (const part of text.split(/^---\s*$/m)) {
      if (!part.trim()) continue;
      const doc = YAML.parse(part) as Record<string, Value> | null;
      if (doc) out.push({ template: `templates/${f}`, doc });
    }
  }
  return out;
}

// `npx tsx deploy/tools/helm-render.ts <chart> [-f values.yaml]… [--name release] [--namespace ns]`
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const args = process.argv.slice(2);
  let values: Value = {};
  const opts: RenderOptions = {};
  let chartDir = '';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-f') values = mergeValues(values, YAML.parse(readFileSync(args[++i]!, 'utf8')));
    else if (a === '--name') opts.releaseName = args[++i];
    else if (a === '--namespace') opts.namespace = args[++i];
    else chartDir = a;
  }
  try {
    const docs = renderChart(chartDir || 'deploy/helm/cellcloud', {
      ...opts,
      values: values as Record<string, Value>,
    });
    process.stdout.write(docs.map((d) => `# Source: ${d.template}\n${YAML.stringify(d.doc)}`).join('---\n'));
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    process.exit(1);
  }
}

export { TemplateError };
