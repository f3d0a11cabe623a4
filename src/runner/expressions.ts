// GitHub Actions expressions (`${{ … }}`) as the built-in runner evaluates them: literals, context
// access (`a.b`, `a['b']`, `a.*.b`), `! < <= > >= == != && ||`, parentheses, and the functions
// contains, startsWith, endsWith, format, join, toJSON, fromJSON, and the status checks success(),
// always(), cancelled(), failure(). Comparison is GitHub's: loose, case-insensitive for strings. Pure.

export type Value = null | boolean | number | string | Value[] | { [k: string]: Value };

export class ExpressionError extends Error {}

export interface Scope {
  /** The contexts by name (github, env, vars, secrets, needs, steps, matrix, inputs, job, runner, strategy). */
  contexts: Record<string, Value>;
  /** The job's state for the status functions: whether an earlier step failed, whether it was cancelled. */
  status?: { failed: boolean; cancelled: boolean };
}

type Tok =
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 'id'; v: string }
  | { k: 'op'; v: string };

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  const afterOperand = () => {
    const t = out.at(-1);
    return !!t && (t.k !== 'op' || t.v === ')' || t.v === ']');
  };
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'") {
      let s = '';
      i++;
      for (;;) {
        if (i >= src.length) throw new ExpressionError(`unterminated string in: ${src}`);
        if (src[i] === "'") {
          if (src[i + 1] === "'") {
            s += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        s += src[i++];
      }
      out.push({ k: 'str', v: s });
      continue;
    }
    const two = src.slice(i, i + 2);
    if (['<=', '>=', '==', '!=', '&&', '||'].includes(two)) {
      out.push({ k: 'op', v: two });
      i += 2;
      continue;
    }
    if ('!<>()[],.*'.includes(c)) {
      // A dot followed by a digit after nothing is a number (.5); after an operand it is member access.
      if (c === '.' && /\d/.test(src[i + 1] ?? '') && !afterOperand()) {
        // fall through to number
      } else {
        out.push({ k: 'op', v: c });
        i++;
        continue;
      }
    }
    const num = /^(-?(0x[0-9a-f]+|\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?))/i.exec(src.slice(i));
    if (num && (c !== '-' || !afterOperand())) {
      out.push({ k: 'num', v: Number(num[1]) });
      i += num[1]!.length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(src.slice(i));
    if (id) {
      out.push({ k: 'id', v: id[0] });
      i += id[0].length;
      continue;
    }
    throw new ExpressionError(`unexpected character '${c}' in: ${src}`);
  }
  return out;
}

type Node =
  | { t: 'lit'; v: Value }
  | { t: 'ctx'; name: string }
  | { t: 'member'; obj: Node; key: Node | '*' }
  | { t: 'not'; e: Node }
  | { t: 'bin'; op: string; l: Node; r: Node }
  | { t: 'call'; name: string; args: Node[] };

class Parser {
  private i = 0;
  constructor(private readonly toks: Tok[], private readonly src: string) {}

  parse(): Node {
    const n = this.or();
    if (this.i < this.toks.length) throw this.err();
    return n;
  }

  private err() {
    return new ExpressionError(`unexpected token in expression: ${this.src}`);
  }

  private peekOp(v: string) {
    const t = this.toks[this.i];
    return t?.k === 'op' && t.v === v;
  }

  private eat(v: string) {
    if (!this.peekOp(v)) throw this.err();
    this.i++;
  }

  private or(): Node {
    let l = this.and();
    while (this.peekOp('||')) {
      this.i++;
      l = { t: 'bin', op: '||', l, r: this.and() };
    }
    return l;
  }

  private and(): Node {
    let l = this.cmp();
    while (this.peekOp('&&')) {
      this.i++;
      l = { t: 'bin', op: '&&', l, r: this.cmp() };
    }
    return l;
  }

  private cmp(): Node {
    let l = this.unary();
    for (;;) {
      const t = this.toks[this.i];
      if (t?.k === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.v)) {
        this.i++;
        l = { t: 'bin', op: t.v, l, r: this.unary() };
      } else return l;
    }
  }

  private unary(): Node {
    if (this.peekOp('!')) {
      this.i++;
      return { t: 'not', e: this.unary() };
    }
    return this.postfix(this.primary());
  }

  private postfix(n: Node): Node {
    for (;;) {
      if (this.peekOp('.')) {
        this.i++;
        const t = this.toks[this.i++];
        if (t?.k === 'op' && t.v === '*') n = { t: 'member', obj: n, key: '*' };
        else if (t?.k === 'id') n = { t: 'member', obj: n, key: { t: 'lit', v: t.v } };
        else throw this.err();
      } else if (this.peekOp('[')) {
        this.i++;
        if (this.peekOp('*')) {
          this.i++;
          n = { t: 'member', obj: n, key: '*' };
        } else n = { t: 'member', obj: n, key: this.or() };
        this.eat(']');
      } else return n;
    }
  }

  private primary(): Node {
    const t = this.toks[this.i++];
    if (!t) throw this.err();
    if (t.k === 'num' || t.k === 'str') return { t: 'lit', v: t.v };
    if (t.k === 'op' && t.v === '(') {
      const n = this.or();
      this.eat(')');
      return n;
    }
    if (t.k === 'id') {
      if (this.peekOp('(')) {
        this.i++;
        const args: Node[] = [];
        if (!this.peekOp(')')) {
          args.push(this.or());
          while (this.peekOp(',')) {
            this.i++;
            args.push(this.or());
          }
        }
        this.eat(')');
        return { t: 'call', name: t.v.toLowerCase(), args };
      }
      if (t.v === 'true') return { t: 'lit', v: true };
      if (t.v === 'false') return { t: 'lit', v: false };
      if (t.v === 'null') return { t: 'lit', v: null };
      if (t.v === 'NaN') return { t: 'lit', v: Number.NaN };
      if (t.v === 'Infinity') return { t: 'lit', v: Number.POSITIVE_INFINITY };
      return { t: 'ctx', name: t.v.toLowerCase() };
    }
    throw this.err();
  }
}

export function truthy(v: Value | undefined): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (typeof v === 'number' && Number.isNaN(v)) return false;
  return true;
}

function toNumber(v: Value | undefined): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    if (v.trim() === '') return 0;
    const n = Number(v.trim());
    return n;
  }
  return Number.NaN;
}

/** A value as text, as GitHub puts it into a string. */
export function show(v: Value | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isInteger(v) || !Number.isFinite(v) ? (Number.isNaN(v) ? 'NaN' : String(v)) : String(v);
  return JSON.stringify(v, null, 2);
}

function looseEq(a: Value | undefined, b: Value | undefined): boolean {
  const ta = kind(a);
  const tb = kind(b);
  if (ta !== tb) {
    if (ta === 'object' || tb === 'object') return false;
    return toNumber(a) === toNumber(b);
  }
  if (ta === 'string') return (a as string).toLowerCase() === (b as string).toLowerCase();
  if (ta === 'object') return a === b;
  return a === b || (a ?? null) === (b ?? null);
}

function kind(v: Value | undefined): 'null' | 'boolean' | 'number' | 'string' | 'object' {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v as 'boolean' | 'number' | 'string';
}

function compare(op: string, a: Value | undefined, b: Value | undefined): boolean {
  let x: number | string;
  let y: number | string;
  if (typeof a === 'string' && typeof b === 'string') {
    x = a.toLowerCase();
    y = b.toLowerCase();
  } else {
    x = toNumber(a);
    y = toNumber(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return false;
  }
  switch (op) {
    case '<': return x < y;
    case '<=': return x <= y;
    case '>': return x > y;
    default: return x >= y;
  }
}

function member(obj: Value | undefined, key: Value | undefined): Value | undefined {
  if (obj === null || obj === undefined || typeof obj !== 'object') return undefined;
  if (Array.isArray(obj)) {
    if (typeof key !== 'number' && !(typeof key === 'string' && /^\d+$/.test(key))) return undefined;
    return obj[Number(key)];
  }
  const k = show(key ?? null);
  if (k in obj) return obj[k];
  const lower = k.toLowerCase();
  for (const [name, v] of Object.entries(obj)) if (name.toLowerCase() === lower) return v;
  return undefined;
}

function evalNode(n: Node, scope: Scope): Value | undefined {
  switch (n.t) {
    case 'lit': return n.v;
    case 'ctx': {
      const found = Object.entries(scope.contexts).find(([k]) => k.toLowerCase() === n.name);
      if (!found) throw new ExpressionError(`Unrecognized named-value: '${n.name}'`);
      return found[1];
    }
    case 'member': {
      const obj = evalNode(n.obj, scope);
      if (n.key === '*') {
        if (obj === null || obj === undefined || typeof obj !== 'object') return [];
        return Object.values(obj);
      }
      const key = evalNode(n.key, scope);
      // After a `*`, member access maps over the items.
      if (n.obj.t === 'member' && n.obj.key === '*' && Array.isArray(obj)) return obj.map((o) => member(o, key)).filter((v): v is Value => v !== undefined);
      return member(obj, key);
    }
    case 'not': return !truthy(evalNode(n.e, scope));
    case 'bin': {
      if (n.op === '&&') {
        const l = evalNode(n.l, scope);
        return truthy(l) ? evalNode(n.r, scope) : l;
      }
      if (n.op === '||') {
        const l = evalNode(n.l, scope);
        return truthy(l) ? l : evalNode(n.r, scope);
      }
      const l = evalNode(n.l, scope);
      const r = evalNode(n.r, scope);
      if (n.op === '==') return looseEq(l, r);
      if (n.op === '!=') return !looseEq(l, r);
      return compare(n.op, l, r);
    }
    case 'call': return call(n.name, n.args, scope);
  }
}

function call(name: string, argNodes: Node[], scope: Scope): Value | undefined {
  const st = scope.status ?? { failed: false, cancelled: false };
  const args = () => argNodes.map((a) => evalNode(a, scope));
  const arity = (min: number, max = min) => {
    if (argNodes.length < min || argNodes.length > max) throw new ExpressionError(`${name}() takes ${min === max ? min : `${min} to ${max}`} arguments`);
  };
  switch (name) {
    case 'success': arity(0); return !st.failed && !st.cancelled;
    case 'always': arity(0); return true;
    case 'failure': arity(0); return st.failed && !st.cancelled;
    case 'cancelled': arity(0); return st.cancelled;
    case 'contains': {
      arity(2);
      const [hay, needle] = args();
      if (Array.isArray(hay)) return hay.some((x) => looseEq(x, needle ?? null));
      return show(hay ?? null).toLowerCase().includes(show(needle ?? null).toLowerCase());
    }
    case 'startswith': {
      arity(2);
      const [a, b] = args();
      return show(a ?? null).toLowerCase().startsWith(show(b ?? null).toLowerCase());
    }
    case 'endswith': {
      arity(2);
      const [a, b] = args();
      return show(a ?? null).toLowerCase().endsWith(show(b ?? null).toLowerCase());
    }
    case 'format': {
      if (argNodes.length < 1) throw new ExpressionError('format() takes at least one argument');
      const [fmt, ...rest] = args();
      return show(fmt ?? null).replace(/\{\{|\}\}|\{(\d+)\}/g, (m, i: string | undefined) => {
        if (m === '{{') return '{';
        if (m === '}}') return '}';
        const k = Number(i);
        if (k >= rest.length) throw new ExpressionError(`format(): no argument ${k}`);
        return show(rest[k] ?? null);
      });
    }
    case 'join': {
      arity(1, 2);
      const [arr, sep] = args();
      const s = sep === undefined ? ',' : show(sep);
      return Array.isArray(arr) ? arr.map((x) => show(x)).join(s) : show(arr ?? null);
    }
    case 'tojson': arity(1); return JSON.stringify(args()[0] ?? null, null, 2);
    case 'fromjson': {
      arity(1);
      try {
        return JSON.parse(show(args()[0] ?? null)) as Value;
      } catch {
        throw new ExpressionError(`fromJSON(): not JSON: ${show(args()[0] ?? null)}`);
      }
    }
    default: throw new ExpressionError(`Unknown function: ${name}()`);
  }
}

/** Evaluates one expression (the text inside `${{ }}`). */
export function evaluate(expr: string, scope: Scope): Value {
  const v = evalNode(new Parser(tokenize(expr), expr).parse(), scope);
  return v === undefined ? null : v;
}

/** Replaces every `${{ … }}` of a string with its value as text. */
export function interpolate(text: string, scope: Scope): string {
  let out = '';
  let i = 0;
  for (;;) {
    const start = text.indexOf('${{', i);
    if (start < 0) return out + text.slice(i);
    out += text.slice(i, start);
    const end = closing(text, start + 3);
    if (end < 0) throw new ExpressionError(`unclosed expression in: ${text}`);
    out += show(evaluate(text.slice(start + 3, end), scope));
    i = end + 2;
  }
}

/** The `}}` that closes an expression started before `from`, skipping quoted strings. */
function closing(text: string, from: number): number {
  let q = false;
  for (let i = from; i < text.length - 1; i++) {
    if (text[i] === "'") q = !q;
    else if (!q && text[i] === '}' && text[i + 1] === '}') return i;
  }
  return -1;
}

/**
 * An `if:` condition: a bare expression or one wrapped in `${{ }}`; without a status function it is
 * `success() && (…)`, as GitHub reads it.
 */
export function condition(text: string | boolean | undefined, scope: Scope): boolean {
  if (text === undefined || text === '') return truthy(evaluate('success()', scope));
  if (typeof text === 'boolean') return text && truthy(evaluate('success()', scope));
  let expr = text.trim();
  const wrapped = /^\$\{\{([\s\S]*)\}\}$/.exec(expr);
  if (wrapped && closing(expr, 3) === expr.length - 2) expr = wrapped[1]!.trim();
  else if (expr.includes('${{')) expr = `'${interpolate(expr, scope).replace(/'/g, "''")}'`;
  if (!/\b(success|always|failure|cancelled)\s*\(/i.test(expr)) expr = `success() && (${expr})`;
  return truthy(evaluate(expr, scope));
}

/** Every string inside a value (a `with:` map, an `env:` map) interpolated. */
export function interpolateDeep(v: unknown, scope: Scope): unknown {
  if (typeof v === 'string') return interpolate(v, scope);
  if (Array.isArray(v)) return v.map((x) => interpolateDeep(x, scope));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, interpolateDeep(x, scope)]));
  return v;
}
