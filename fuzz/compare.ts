// Differential mode: two servers' answers to the same request, compared by status, the headers clients
// read (content type, X-Total-Count, Link) and the body's shape member by member (types and which members
// are there, not values: ids and times differ between any two servers). A file of expected differences
// lists the ones to ignore.
import { readFileSync } from 'node:fs';
import type { Answer } from './http.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const media = (ct: string | null) => (ct ?? '').split(';')[0]!.trim().toLowerCase();

/** Where two JSON values differ in shape, one line per member: `body /owner/login: string vs missing`. */
export function shapeDiff(a: unknown, b: unknown, at = ''): string[] {
  const ta = typeOf(a), tb = typeOf(b);
  if (ta !== tb) return [`body ${at || '/'}: ${ta} vs ${tb}`];
  if (isObj(a) && isObj(b)) {
    const out: string[] = [];
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const here = `${at}/${k}`;
      if (!Object.hasOwn(b, k)) out.push(`body ${here}: ${typeOf(a[k])} vs missing`);
      else if (!Object.hasOwn(a, k)) out.push(`body ${here}: missing vs ${typeOf(b[k])}`);
      else out.push(...shapeDiff(a[k], b[k], here));
    }
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    // Items are compared by the first of each (lists of the same kind of thing); an empty list says nothing.
    return a.length && b.length ? shapeDiff(a[0], b[0], `${at}/0`) : [];
  }
  return [];
}

export function diffAnswers(a: Answer, b: Answer): string[] {
  if (a.status !== b.status) return [`status: ${a.status} vs ${b.status}`];
  const out: string[] = [];
  if (media(a.contentType) !== media(b.contentType)) out.push(`header content-type: ${media(a.contentType) || 'none'} vs ${media(b.contentType) || 'none'}`);
  for (const h of ['x-total-count', 'link']) {
    const [x, y] = [a.headers.get(h), b.headers.get(h)];
    if ((x === null) !== (y === null)) out.push(`header ${h}: ${x === null ? 'missing' : 'present'} vs ${y === null ? 'missing' : 'present'}`);
  }
  if (a.json !== undefined || b.json !== undefined) out.push(...shapeDiff(a.json, b.json));
  return out;
}

export interface ExpectedDifference {
  operation: RegExp;
  difference: RegExp;
  line: string;
}

/**
 * The expected-differences file: one difference a line, `<operationId regexp> <difference regexp>`
 * (the rest of the line after the first blank), `#` starts a comment. E.g.
 *   repoGet   ^body /owner/avatar_url:
 *   .*        ^header link:
 */
export function readExpected(file: string): ExpectedDifference[] {
  return readFileSync(file, 'utf8').split('\n').map((l) => l.replace(/(^|\s)#.*$/, '').trim()).filter(Boolean).map((line) => {
    const [op, ...rest] = line.split(/\s+/);
    return { operation: new RegExp(op!), difference: new RegExp(rest.join(' ') || '.*'), line };
  });
}

export function isExpected(expected: ExpectedDifference[], operationId: string, difference: string): boolean {
  return expected.some((e) => e.operation.test(operationId) && e.difference.test(difference));
}
