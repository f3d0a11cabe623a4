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

/** Where a value sits: its key under its parent (names are built only for the one refused). */
interface Place {
  key: string;
  parent?: Place;
}

/** `name.0.key`, as a message shows it: a deeply nested one is cut (the message stays short). */
function nameOf(place: Place | undefined, root: string): string {
  const keys: string[] = [];
  for (let p = place; p; p = p.parent) keys.push(p.key);
  if (root) keys.push(root);
  const name = keys.reverse().join('.') || 'body';
  return name.length > 200 ? `${name.slice(0, 200)}…` : name;
}

/**
 * `[field]: problem` for a string (or key) of `value` that is not storable text (`name`, `scopes.0`,
 * `body` for a bare string; an object's own strings before those nested deeper), or undefined when all
 * of it is. Walked without recursion, so
 * a deeply nested body cannot overflow the stack.
 */
export function textProblem(value: unknown, name = ''): string | undefined {
  const pending: Array<[unknown, Place | undefined]> = [[value, undefined]];
  while (pending.length) {
    const [v, place] = pending.pop()!;
    if (typeof v === 'string') {
      const problem = problemOf(v);
      if (problem) return `[${nameOf(place, name)}]: ${problem}`;
    } else if (typeof v === 'object' && v !== null) {
      // Keys and string values (most of them) are checked here, in order; objects wait their turn with a
      // place of their own, pushed last to first so that they are walked first to last.
      const nested: Array<[unknown, Place]> = [];
      for (const key of Object.keys(v)) {
        const inner = (v as Record<string, unknown>)[key];
        const problem = problemOf(key) ?? (typeof inner === 'string' ? problemOf(inner) : undefined);
        if (problem) return `[${nameOf({ key, parent: place }, name)}]: ${problem}`;
        if (typeof inner === 'object' && inner !== null) nested.push([inner, { key, parent: place }]);
      }
      for (let i = nested.length - 1; i >= 0; i--) pending.push(nested[i]!);
    }
  }
  return undefined;
}
