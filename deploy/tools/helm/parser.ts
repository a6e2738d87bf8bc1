import { TemplateError, tokenize, type Tok, type Value } from './lexer';

/**
 * The parser of deploy/tools/helm-render.ts: a template's text and actions as a tree of nodes
 * (if / range / with / define / template), each action a pipeline of commands.
 */

export type Node =
  | { t: 'text'; s: string }
  | { t: 'out'; pipe: Pipe }
  | { t: 'if'; branches: { pipe: Pipe; body: Node[] }[]; otherwise: Node[] }
  | { t: 'range'; pipe: Pipe; body: Node[]; otherwise: Node[] }
  | { t: 'with'; pipe: Pipe; body: Node[]; otherwise: Node[] }
  | { t: 'template'; name: string; pipe?: Pipe };

export interface Pipe {
  decl: string[];
  assign: boolean; // `=` (re-assign) rather than `:=`
  cmds: Operand[][];
}

export type Operand =
  | { t: 'lit'; v: Value }
  | { t: 'field'; base: 'dot' | string | Pipe; path: string[] }
  | { t: 'fn'; name: string };

export function parsePipe(toks: Tok[], pos: { i: number }, where: string, inParens = false): Pipe {
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

export interface Parsed {
  nodes: Node[];
  defines: Map<string, Node[]>;
}

export function parseTemplate(src: string, file: string): Parsed {
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
