/**
 * The lexer of deploy/tools/helm-render.ts (Go text/template as Helm uses it): the tokens of one
 * action, `{{ … }}`, and the error type of the whole renderer.
 */

export type Value = unknown;

export class TemplateError extends Error {}

/** `sp`: whitespace before the token (`(x).y` reads a field of x, `(x) .y` is a second argument). */
export type Tok = { k: 'str' | 'num' | 'id' | 'field' | 'var' | 'punct'; v: string; sp?: boolean };

export function tokenize(src: string, where: string): Tok[] {
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
