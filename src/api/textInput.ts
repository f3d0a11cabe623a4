// Text a request carries (path and query values, JSON and form fields, object keys) must be text that can
// be stored and named: no NUL (PostgreSQL cannot store it in text or jsonb, git cuts names at it) and no
// lone UTF-16 surrogate (it has no UTF-8 form: PostgreSQL refuses it, git would write U+FFFD into a ref
// name while the record of it fails). Such input is refused as a whole, before anything is read or written.

// A high surrogate not followed by a low one, or a low one not preceded by a high one (code units: no `u` flag).
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The problem of one string, if it has one. */
function problemOf(s: string): string | undefined {
  if (s.includes('\0')) return 'must not contain NUL characters';
  if (loneSurrogate.test(s)) return 'must be valid Unicode text (it has a lone surrogate)';
  return undefined;
}

/**
 * `[field]: problem` for the first string (or key) of `value` that is not storable text (`name`,
 * `scopes.0`, `body` for a bare string), or undefined when all of it is. Walked without recursion, so
 * a deeply nested body cannot overflow the stack.
 */
export function textProblem(value: unknown, name = ''): string | undefined {
  const pending: Array<[unknown, string]> = [[value, name]];
  while (pending.length) {
    const [v, field] = pending.pop()!;
    if (typeof v === 'string') {
      const problem = problemOf(v);
      if (problem) return `[${field || 'body'}]: ${problem}`;
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, inner] = entries[i]!;
        const at = field ? `${field}.${k}` : k;
        const keyProblem = problemOf(k);
        if (keyProblem) return `[${at}]: ${keyProblem}`;
        pending.push([inner, at]);
      }
    }
  }
  return undefined;
}
