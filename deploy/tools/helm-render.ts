import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

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
 */

type Value = unknown;
type Scope = Map<string, Value>[];

class TemplateError extends Error {}

// ---------------------------------------------------------------- lexing and parsing

type Node =
  | { t: 'text'; s: string }
  | { t: 'out'; pipe: Pipe }
  | { t: 'if'; branches: { pipe: Pipe; body: Node[] }[]; otherwise: Node[] }
  | { t: 'range'; pipe: Pipe; body: Node[]; otherwise: Node[] }
  | { t: 'with'; pipe: Pipe; body: Node[]; otherwise: Node[] }
  | { t: 'template'; name: string; pipe?: Pipe };

interface Pipe {
  decl: string[];
  assign: boolean; // `=` (re-assign) rather than `:=`
  cmds: Operand[][];
}

type Operand =
  | { t: 'lit'; v: Value }
  | { t: 'field'; base: 'dot' | string | Pipe; path: string[] }
  | { t: 'fn'; name: string };

/** `sp`: whitespace before the token (`(x).y` reads a field of x, `(x) .y` is a second argument). */
type Tok = { k: 'str' | 'num' | 'id' | 'field' | 'var' | 'punct'; v: string; sp?: boolean };

function tokenize(src: string, where: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  let sp = false;
  const push = (t: Tok) => {
    out.push({ ...t, sp });
    sp = false;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      sp = true;
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      push({ k: 'str', v: JSON.parse(src.slice(i, j + 1)) as string });
      i = j + 1;
    } else if (c === '`') {
      const j = src.indexOf('`', i + 1);
      push({ k: 'str', v: src.slice(i + 1, j) });
      i = j + 1;
    } else if (src.startsWith(':=', i)) {
      push({ k: 'punct', v: ':=' });
      i += 2;
    } else if ('()|,='.includes(c)) {
      push({ k: 'punct', v: c });
      i++;
    } else {
      const m =
        /^(-?\d+(\.\d+)?|\$[A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*|(\.[A-Za-z0-9_]+)+|\.|[A-Za-z_][A-Za-z0-9_]*)/.exec(
          src.slice(i),
        );
      if (!m) throw new TemplateError(`${where}: cannot read "${src.slice(i, i + 20)}"`);
      const w = m[0];
      const k = /^-?\d/.test(w) ? 'num' : w.startsWith('$') ? 'var' : w.startsWith('.') ? 'field' : 'id';
      push({ k, v: w });
      i += w.length;
    }
  }
  return out;
}

function parsePipe(toks: Tok[], pos: { i: number }, where: string, inParens = false): Pipe {
  const pipe: Pipe = { decl: [], assign: false, cmds: [] };
  // declarations: $x := …, $i, $v := …, $x = …
  let j = pos.i;
  const vars: string[] = [];
  while (toks[j]?.k === 'var' && !toks[j]!.v.includes('.')) {
    vars.push(toks[j]!.v);
    if (toks[j + 1]?.v === ',') j += 2;
    else {
      j++;
      break;
    }
  }
  if (vars.length && (toks[j]?.v === ':=' || toks[j]?.v === '=')) {
    pipe.decl = vars;
    pipe.assign = toks[j]!.v === '=';
    pos.i = j + 1;
  }
  let cmd: Operand[] = [];
  while (pos.i < toks.length) {
    const tok = toks[pos.i]!;
    if (tok.v === ')' && tok.k === 'punct') {
      if (!inParens) throw new TemplateError(`${where}: unexpected ")"`);
      break;
    }
    pos.i++;
    if (tok.k === 'punct' && tok.v === '|') {
      if (!cmd.length) throw new TemplateError(`${where}: empty command before "|"`);
      pipe.cmds.push(cmd);
      cmd = [];
    } else if (tok.k === 'punct' && tok.v === '(') {
      const inner = parsePipe(toks, pos, where, true);
      if (toks[pos.i]?.v !== ')') throw new TemplateError(`${where}: missing ")"`);
      pos.i++;
      // (pipeline).field
      const next = toks[pos.i];
      let pathParts: string[] = [];
      if (next?.k === 'field' && next.v !== '.' && !next.sp) {
        pathParts = next.v.slice(1).split('.');
        pos.i++;
      }
      cmd.push({ t: 'field', base: inner, path: pathParts });
    } else if (tok.k === 'str') cmd.push({ t: 'lit', v: tok.v });
    else if (tok.k === 'num') cmd.push({ t: 'lit', v: tok.v.includes('.') ? Number(tok.v) : BigInt(tok.v) });
    else if (tok.k === 'field')
      cmd.push({ t: 'field', base: 'dot', path: tok.v === '.' ? [] : tok.v.slice(1).split('.') });
    else if (tok.k === 'var') {
      const [name, ...rest] = tok.v.split('.');
      cmd.push({ t: 'field', base: name!, path: rest });
    } else if (tok.k === 'id') {
      if (tok.v === 'true' || tok.v === 'false') cmd.push({ t: 'lit', v: tok.v === 'true' });
      else if (tok.v === 'nil') cmd.push({ t: 'lit', v: null });
      else cmd.push({ t: 'fn', name: tok.v });
    } else throw new TemplateError(`${where}: unexpected "${tok.v}"`);
  }
  if (cmd.length) pipe.cmds.push(cmd);
  if (!pipe.cmds.length) throw new TemplateError(`${where}: missing value`);
  return pipe;
}

interface Parsed {
  nodes: Node[];
  defines: Map<string, Node[]>;
}

function parseTemplate(src: string, file: string): Parsed {
  // split into text and actions, applying the trim markers
  const parts: ({ t: 'text'; s: string } | { t: 'act'; s: string; line: number })[] = [];
  let i = 0;
  let trimNext = false;
  while (i < src.length) {
    const open = src.indexOf('{{', i);
    let text = src.slice(i, open < 0 ? src.length : open);
    if (trimNext) text = text.replace(/^\s+/, '');
    trimNext = false;
    if (open < 0) {
      parts.push({ t: 'text', s: text });
      break;
    }
    let start = open + 2;
    if (src[start] === '-' && /\s/.test(src[start + 1] ?? '')) {
      text = text.replace(/\s+$/, '');
      start += 2;
    }
    parts.push({ t: 'text', s: text });
    // find the closing braces outside strings
    let j = start;
    let quote: string | null = null;
    while (j < src.length) {
      const c = src[j]!;
      if (quote) {
        if (c === '\\' && quote === '"') j++;
        else if (c === quote) quote = null;
      } else if (c === '"' || c === '`') quote = c;
      else if (src.startsWith('}}', j)) break;
      j++;
    }
    if (j >= src.length) throw new TemplateError(`${file}: unclosed action`);
    let body = src.slice(start, j);
    if (/\s-$/.test(body)) {
      body = body.slice(0, -2);
      trimNext = true;
    }
    parts.push({ t: 'act', s: body.trim(), line: src.slice(0, open).split('\n').length });
    i = j + 2;
  }

  const defines = new Map<string, Node[]>();
  const root: Node[] = [];
  type Frame = {
    kind: 'root' | 'if' | 'range' | 'with' | 'define';
    node?: Node;
    name?: string;
    body: Node[];
  };
  const stack: Frame[] = [{ kind: 'root', body: root }];
  const top = () => stack[stack.length - 1]!;
  for (const p of parts) {
    if (p.t === 'text') {
      if (p.s) top().body.push({ t: 'text', s: p.s });
      continue;
    }
    const where = `${file}:${p.line}`;
    if (p.s.startsWith('/*')) {
      if (!p.s.endsWith('*/')) throw new TemplateError(`${where}: unclosed comment`);
      continue;
    }
    const toks = tokenize(p.s, where);
    const head = toks[0]?.k === 'id' ? toks[0].v : '';
    const rest = () => {
      const pos = { i: 1 };
      const pipe = parsePipe(toks, pos, where);
      if (pos.i !== toks.length) throw new TemplateError(`${where}: unexpected "${toks[pos.i]!.v}"`);
      return pipe;
    };
    if (head === 'if' || head === 'range' || head === 'with') {
      const body: Node[] = [];
      const node: Node =
        head === 'if'
          ? { t: 'if', branches: [{ pipe: rest(), body }], otherwise: [] }
          : { t: head, pipe: rest(), body, otherwise: [] };
      top().body.push(node);
      stack.push({ kind: head, node, body });
    } else if (head === 'else') {
      const f = top();
      if (f.kind !== 'if' && f.kind !== 'range' && f.kind !== 'with')
        throw new TemplateError(`${where}: else outside if/range/with`);
      const node = f.node as Extract<Node, { otherwise: Node[] }>;
      if (toks[1]?.v === 'if' && node.t === 'if') {
        const pos = { i: 2 };
        const pipe = parsePipe(toks, pos, where);
        const body: Node[] = [];
        node.branches.push({ pipe, body });
        f.body = body;
      } else {
        f.body = node.otherwise;
      }
    } else if (head === 'end') {
      const f = stack.pop()!;
      if (f.kind === 'root') throw new TemplateError(`${where}: end without a block`);
      if (f.kind === 'define') defines.set(f.name!, f.body);
    } else if (head === 'define') {
      if (toks[1]?.k !== 'str') throw new TemplateError(`${where}: define needs a name`);
      stack.push({ kind: 'define', name: toks[1].v, body: [] });
    } else if (head === 'template') {
      if (toks[1]?.k !== 'str') throw new TemplateError(`${where}: template needs a name`);
      const pos = { i: 2 };
      top().body.push({
        t: 'template',
        name: toks[1].v,
        pipe: toks.length > 2 ? parsePipe(toks, pos, where) : undefined,
      });
    } else if (head === 'block') {
      throw new TemplateError(`${where}: block is not supported`);
    } else {
      const pos = { i: 0 };
      const pipe = parsePipe(toks, pos, where);
      if (pos.i !== toks.length) throw new TemplateError(`${where}: unexpected "${toks[pos.i]!.v}"`);
      top().body.push({ t: 'out', pipe });
    }
  }
  if (stack.length !== 1) throw new TemplateError(`${file}: missing {{ end }}`);
  return { nodes: root, defines };
}

// ---------------------------------------------------------------- values and functions

function truthy(v: Value): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === 0n || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

/** Go's %v of a float64: shortest digits, exponent form from 1e6 up and below 1e-4 (1000000 → 1e+06). */
function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  if (n === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 6) {
    const [m, e] = n.toExponential().split('e');
    const ee = Number(e);
    return `${m}e${ee < 0 ? '-' : '+'}${String(Math.abs(ee)).padStart(2, '0')}`;
  }
  return String(n);
}

function str(v: Value): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number') return goFloat(v);
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return v;
  throw new TemplateError(`cannot print a ${Array.isArray(v) ? 'list' : 'map'} directly (use toYaml)`);
}

function toInt(v: Value): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  if (typeof v === 'boolean') return v ? 1n : 0n;
  return 0n;
}

function printf(format: string, args: Value[]): string {
  let k = 0;
  return format.replace(/%([%sdvq])/g, (_m, verb: string) => {
    if (verb === '%') return '%';
    const a = args[k++];
    if (verb === 'd') {
      if (typeof a === 'bigint') return String(a);
      return `%!d(${typeof a === 'number' ? `float64=${goFloat(a)}` : `${typeof a}=${str(a)}`})`;
    }
    if (verb === 'q') return JSON.stringify(str(a));
    return str(a);
  });
}

function eq(a: Value, b: Value): boolean {
  if (typeof a === 'bigint' || typeof b === 'bigint') return toInt(a) === toInt(b) && typeof a !== 'string';
  return a === b;
}

type Fn = (r: Renderer, ...args: Value[]) => Value;

/** Helm/Sprig functions this renderer implements (same argument order and results as Helm). */
const FUNCS: Record<string, Fn> = {
  include: (r, name, data) => r.include(String(name), data),
  toYaml: (_r, v) =>
    v === undefined || v === null ? '' : YAML.stringify(v, { lineWidth: 0 }).replace(/\n$/, ''),
  indent: (_r, n, s) => {
    const pad = ' '.repeat(Number(n));
    return pad + str(s).replace(/\n/g, `\n${pad}`);
  },
  nindent: (r, n, s) => `\n${FUNCS.indent!(r, n, s) as string}`,
  quote: (_r, ...a) =>
    a
      .filter((x) => x !== undefined && x !== null)
      .map((x) => JSON.stringify(str(x)))
      .join(' '),
  default: (_r, d, v) => (truthy(v) ? v : d),
  required: (_r, msg, v) => {
    if (v === undefined || v === null || v === '') throw new TemplateError(String(msg));
    return v;
  },
  fail: (_r, msg) => {
    throw new TemplateError(String(msg));
  },
  printf: (_r, f, ...a) => printf(String(f), a),
  print: (_r, ...a) => a.map(str).join(''),
  add: (_r, ...a) => a.reduce<bigint>((s, x) => s + toInt(x), 0n),
  sub: (_r, a, b) => toInt(a) - toInt(b),
  mul: (_r, ...a) => a.reduce<bigint>((s, x) => s * toInt(x), 1n),
  div: (_r, a, b) => toInt(a) / toInt(b),
  eq: (_r, a, ...b) => b.some((x) => eq(a, x)),
  ne: (_r, a, b) => !eq(a, b),
  not: (_r, v) => !truthy(v),
  and: (_r, ...a) => a.find((x) => !truthy(x)) ?? a[a.length - 1],
  or: (_r, ...a) => a.find((x) => truthy(x)) ?? a[a.length - 1],
  empty: (_r, v) => !truthy(v),
  contains: (_r, sub, s) => str(s).includes(str(sub)),
  hasKey: (_r, m, k) => typeof m === 'object' && m !== null && Object.hasOwn(m, String(k)),
  trunc: (_r, n, s) => str(s).slice(0, Number(n)),
  trimSuffix: (_r, suf, s) => (str(s).endsWith(str(suf)) ? str(s).slice(0, -str(suf).length) : str(s)),
  lower: (_r, s) => str(s).toLowerCase(),
  toString: (_r: Renderer, v: Value) => str(v),
  int: (_r, v) => toInt(v),
  list: (_r, ...a) => a,
  dict: (_r, ...a) => {
    const o: Record<string, Value> = {};
    for (let i = 0; i < a.length; i += 2) o[str(a[i])] = a[i + 1];
    return o;
  },
  sha256sum: (_r, s) => createHash('sha256').update(str(s)).digest('hex'),
  b64enc: (_r, s) => Buffer.from(str(s)).toString('base64'),
};

// ---------------------------------------------------------------- evaluation

class Renderer {
  constructor(private readonly defines: Map<string, Node[]>) {}

  include(name: string, data: Value): string {
    const body = this.defines.get(name);
    if (!body) throw new TemplateError(`no template "${name}"`);
    return this.exec(body, data, [new Map([['$', data]])]);
  }

  private lookup(scope: Scope, name: string): Value {
    for (let i = scope.length - 1; i >= 0; i--) if (scope[i]!.has(name)) return scope[i]!.get(name);
    throw new TemplateError(`undefined variable ${name}`);
  }

  private field(v: Value, pathParts: string[]): Value {
    let cur = v;
    for (const p of pathParts) {
      if (cur === undefined || cur === null) return undefined;
      if (typeof cur !== 'object' || Array.isArray(cur))
        throw new TemplateError(`cannot read .${p} of ${str(cur)}`);
      cur = (cur as Record<string, Value>)[p];
    }
    return cur;
  }

  private operand(o: Operand, dot: Value, scope: Scope): Value {
    if (o.t === 'lit') return o.v;
    if (o.t === 'fn') return this.call(o.name, [], dot, scope);
    const base =
      o.base === 'dot'
        ? dot
        : typeof o.base === 'string'
          ? this.lookup(scope, o.base)
          : this.pipe(o.base, dot, scope);
    return this.field(base, o.path);
  }

  private call(name: string, args: Value[], _dot: Value, _scope: Scope): Value {
    const f = FUNCS[name];
    if (!f) throw new TemplateError(`function "${name}" is not supported by this renderer`);
    return f(this, ...args);
  }

  pipe(p: Pipe, dot: Value, scope: Scope): Value {
    let prev: Value = undefined;
    p.cmds.forEach((cmd, idx) => {
      const piped = idx > 0 ? [prev] : [];
      const [first, ...rest] = cmd;
      if (first!.t === 'fn') {
        // `and`/`or` evaluate lazily in Go; eager evaluation is equivalent for these functions
        const args = rest.map((o) => this.operand(o, dot, scope));
        prev = this.call(first!.name, [...args, ...piped], dot, scope);
      } else {
        if (rest.length || piped.length) throw new TemplateError('only a function can take arguments');
        prev = this.operand(first!, dot, scope);
      }
    });
    if (p.decl.length === 1) {
      if (p.assign) {
        for (let i = scope.length - 1; i >= 0; i--)
          if (scope[i]!.has(p.decl[0]!)) {
            scope[i]!.set(p.decl[0]!, prev);
            break;
          }
      } else scope[scope.length - 1]!.set(p.decl[0]!, prev);
    }
    return prev;
  }

  exec(nodes: Node[], dot: Value, scope: Scope): string {
    let out = '';
    for (const n of nodes) {
      if (n.t === 'text') out += n.s;
      else if (n.t === 'out') {
        const v = this.pipe(n.pipe, dot, scope);
        if (!n.pipe.decl.length) out += str(v);
      } else if (n.t === 'template') {
        out += this.include(n.name, n.pipe ? this.pipe(n.pipe, dot, scope) : undefined);
      } else if (n.t === 'if') {
        const branch = n.branches.find((b) => truthy(this.pipe(b.pipe, dot, [...scope, new Map()])));
        out += this.exec(branch ? branch.body : n.otherwise, dot, [...scope, new Map()]);
      } else if (n.t === 'with') {
        const v = this.pipe(n.pipe, dot, scope);
        out += truthy(v)
          ? this.exec(n.body, v, [...scope, new Map()])
          : this.exec(n.otherwise, dot, [...scope, new Map()]);
      } else {
        const inner = new Map<string, Value>();
        const decl = n.pipe.decl;
        const v = this.pipe({ ...n.pipe, decl: [] }, dot, scope);
        const entries: [Value, Value][] = Array.isArray(v)
          ? v.map((x, i) => [BigInt(i), x])
          : v && typeof v === 'object'
            ? Object.keys(v)
                .sort()
                .map((k) => [k, (v as Record<string, Value>)[k]])
            : [];
        if (!entries.length) out += this.exec(n.otherwise, dot, [...scope, new Map()]);
        for (const [k, x] of entries) {
          if (decl.length === 1) inner.set(decl[0]!, x);
          if (decl.length === 2) {
            inner.set(decl[0]!, k);
            inner.set(decl[1]!, x);
          }
          out += this.exec(n.body, x, [...scope, new Map(inner)]);
        }
      }
    }
    return out;
  }
}

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
