// The API router tests only the routes a request's path can match (src/api/routeIndex.ts): for any path
// and method it must find exactly the routes koa-router's own match finds, in the same order.
import Router from '@koa/router';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildRouter } from '../../src/api/router.js';
import { loadSpec, specOperations } from '../../src/api/spec.js';
import { loadConfig } from '../../src/config.js';
import type { Services } from '../../src/services/index.js';

const doc = loadSpec();
const templates = specOperations(doc).map((o) => o.path);
const router = await buildRouter(loadSpec(), {} as Services, loadConfig({ ROOT_URL: 'https://git.example.com/' }));
const original = Object.getPrototypeOf(router).match as Router['match'];
const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'get'];

function same(path: string, method: string) {
  const want = original.call(router, path, method);
  const got = router.match(path, method);
  const names = (r: typeof want) => ({ path: r.path.map((l) => l.path), pathAndMethod: r.pathAndMethod.map((l) => `${l.methods}`), route: r.route });
  assert.equal(names(got), names(want), `${method} ${path}`);
  assert.ok(got.path.every((l, i) => l === want.path[i]), `${method} ${path}: other layers`);
}

test('the router answers with its own match narrowed (a breakage of the index would not be tested)', () => {
  assert.is.not(router.match, original);
});

test('every operation path, filled with plain values, matches as koa-router matches it', () => {
  let routed = 0;
  for (const t of templates) {
    const path = `/api/v1${t.replace(/\{[^}]+\}/g, 'x1')}`;
    for (const m of methods) same(path, m);
    if (router.match(path, 'GET').path.length) routed++;
  }
  assert.ok(routed > 300, `only ${routed} paths routed: the comparison proves little`);
});

// Path segments: the spec's own literals in any case, parameters, empty and odd segments.
const literals = [...new Set(templates.flatMap((t) => t.split('/')).filter((s) => s && !s.includes('{')))];
const segment = fc.oneof(
  fc.constantFrom(...literals),
  fc.constantFrom(...literals).map((s) => s.toUpperCase()),
  fc.constantFrom(...literals).map((s) => `${s[0]!.toUpperCase()}${s.slice(1)}`),
  fc.constantFrom('', 'x', '1', 'root', 'a.b', 'main.diff', '%41', 'us%65r', 'ſ', 'K', '..', 'é'),
  fc.string({ maxLength: 6 }).map((s) => s.replace(/[/?#]/g, '')),
);

test('any path built of the spec\'s segments matches as koa-router matches it', () => {
  fc.assert(
    fc.property(fc.array(segment, { minLength: 0, maxLength: 9 }), fc.boolean(), fc.boolean(), fc.constantFrom(...methods), (segs, prefixed, slash, m) => {
      same(`${prefixed ? '/api/v1' : ''}/${segs.join('/')}${slash ? '/' : ''}`, m);
    }),
    { numRuns: 3000 },
  );
});

test('paths that follow a template with its literals changed match as koa-router matches them', () => {
  fc.assert(
    fc.property(fc.constantFrom(...templates), fc.array(fc.tuple(fc.nat(12), segment), { maxLength: 3 }), fc.constantFrom(...methods), (t, edits, m) => {
      const segs = `/api/v1${t}`.split('/').map((s) => (s.includes('{') ? 'v' : s));
      for (const [i, s] of edits) if (i < segs.length && i > 0) segs[i] = s;
      same(segs.join('/'), m);
    }),
    { numRuns: 3000 },
  );
});

test.run();
