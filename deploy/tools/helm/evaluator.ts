import { createHash } from 'node:crypto';
import YAML from 'yaml';
import { TemplateError, type Value } from './lexer';
import type { Node, Operand, Pipe } from './parser';

/**
 * The evaluator of deploy/tools/helm-render.ts: Helm's value semantics (truthiness, Go's
 * formatting of numbers, int64 arithmetic), the Helm/Sprig functions in FUNCS and the Renderer
 * that executes parsed templates.
 */

type Scope = Map<string, Value>[];

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

export class Renderer {
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
