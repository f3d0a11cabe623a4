import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pageHeaders, pageOf } from '../../src/api/pagination.js';
import { loadConfig } from '../../src/config.js';

const config = loadConfig({ ROOT_URL: 'https://git.example.com/' });

function links(header: string | undefined): Record<string, URL> {
  const out: Record<string, URL> = {};
  for (const part of (header ?? '').split(', ').filter(Boolean)) {
    const m = /^<([^>]+)>; rel="(first|prev|next|last)"$/.exec(part);
    assert.ok(m, `malformed Link part: ${part}`);
    assert.not.ok(m![2]! in out, `rel ${m![2]} twice`);
    out[m![2]!] = new URL(m![1]!);
  }
  return out;
}

// --- pageOf ----------------------------------------------------------------------------------------

test('pageOf: defaults are page 1 and the configured default size (30)', () => {
  assert.equal(pageOf({}, config), { page: 1, limit: 30, offset: 0 });
});

test('pageOf: page below 1, NaN or fractional', () => {
  assert.is(pageOf({ page: 0 }, config).page, 1);
  assert.is(pageOf({ page: -7 }, config).page, 1);
  assert.is(pageOf({ page: Number.NaN }, config).page, 1);
  assert.is(pageOf({ page: 2.9 }, config).page, 2);
  assert.is(pageOf({ page: 0.5 }, config).page, 1);
});

test('pageOf: limit 0 or less is the default; above the maximum it is clamped to 50', () => {
  assert.is(pageOf({ limit: 0 }, config).limit, 30);
  assert.is(pageOf({ limit: -1 }, config).limit, 30);
  assert.is(pageOf({ limit: Number.NaN }, config).limit, 30);
  assert.is(pageOf({ limit: 1 }, config).limit, 1);
  assert.is(pageOf({ limit: 50 }, config).limit, 50);
  assert.is(pageOf({ limit: 51 }, config).limit, 50);
  assert.is(pageOf({ limit: 100 }, config).limit, 50, 'Terraform pages with limit=100');
  assert.is(pageOf({ limit: 1e20 }, config).limit, 50);
});

test('pageOf: a huge or infinite page keeps the offset a safe integer', () => {
  for (const page of [1e300, Number.POSITIVE_INFINITY, 2 ** 62, Number.MAX_SAFE_INTEGER]) {
    for (const limit of [1, 30, 50]) {
      const p = pageOf({ page, limit }, config);
      assert.ok(Number.isSafeInteger(p.offset) && p.offset >= 0, `${page}/${limit} → ${p.offset}`);
      assert.ok(Number.isSafeInteger(p.page) && p.page > 1);
    }
  }
});

test('pageOf: offset is (page - 1) × limit', () => {
  assert.equal(pageOf({ page: 3, limit: 10 }, config), { page: 3, limit: 10, offset: 20 });
  assert.equal(pageOf({ page: 2, limit: 100 }, config), { page: 2, limit: 50, offset: 50 });
});

test('pageOf: follows DEFAULT_PAGE_SIZE and MAX_PAGE_SIZE; the default never exceeds the maximum', () => {
  const custom = loadConfig({ DEFAULT_PAGE_SIZE: '10', MAX_PAGE_SIZE: '20' });
  assert.equal(pageOf({}, custom), { page: 1, limit: 10, offset: 0 });
  assert.is(pageOf({ limit: 25 }, custom).limit, 20);
  const inverted = loadConfig({ DEFAULT_PAGE_SIZE: '80', MAX_PAGE_SIZE: '20' });
  assert.is(pageOf({}, inverted).limit, 20);
});

test('pageOf: property — 1 ≤ limit ≤ max, page ≥ 1, offset = (page-1)·limit', () => {
  fc.assert(
    fc.property(fc.option(fc.double(), { nil: undefined }), fc.option(fc.double(), { nil: undefined }), (page, limit) => {
      const p = pageOf({ page, limit }, config);
      return (
        Number.isSafeInteger(p.page) && p.page >= 1 &&
        Number.isInteger(p.limit) && p.limit >= 1 && p.limit <= config.pageSize.max &&
        Number.isSafeInteger(p.offset) && p.offset === (p.page - 1) * p.limit
      );
    }),
    { numRuns: 500 },
  );
});

// --- pageHeaders -----------------------------------------------------------------------------------

test('pageHeaders: no items — X-Total-Count 0 and no Link', () => {
  assert.equal(pageHeaders(config, '/api/v1/users/a/tokens', pageOf({}, config), 0), { 'X-Total-Count': '0' });
});

test('pageHeaders: a single full page has no Link', () => {
  const h = pageHeaders(config, '/api/v1/users/a/tokens?limit=5', pageOf({ limit: 5 }, config), 5);
  assert.equal(h, { 'X-Total-Count': '5' });
});

test('pageHeaders: first page of several — next and last, in that order', () => {
  const h = pageHeaders(config, '/api/v1/users/a/tokens?limit=2', pageOf({ page: 1, limit: 2 }, config), 5);
  assert.is(h['X-Total-Count'], '5');
  assert.is(
    h.Link,
    '<https://git.example.com/api/v1/users/a/tokens?limit=2&page=2>; rel="next", ' +
      '<https://git.example.com/api/v1/users/a/tokens?limit=2&page=3>; rel="last"',
  );
});

test('pageHeaders: a middle page — next, last, first, prev', () => {
  const h = pageHeaders(config, '/api/v1/x?page=2&limit=2', pageOf({ page: 2, limit: 2 }, config), 5);
  const l = links(h.Link);
  assert.equal(Object.keys(l), ['next', 'last', 'first', 'prev']);
  assert.is(l.next!.searchParams.get('page'), '3');
  assert.is(l.last!.searchParams.get('page'), '3');
  assert.is(l.first!.searchParams.get('page'), '1');
  assert.is(l.prev!.searchParams.get('page'), '1');
  for (const u of Object.values(l)) assert.is(u.searchParams.get('limit'), '2');
});

test('pageHeaders: the last page — first and prev only', () => {
  const l = links(pageHeaders(config, '/api/v1/x?page=3&limit=2', pageOf({ page: 3, limit: 2 }, config), 5).Link);
  assert.equal(Object.keys(l), ['first', 'prev']);
  assert.is(l.prev!.searchParams.get('page'), '2');
});

test('pageHeaders: a page past the end still points back', () => {
  const l = links(pageHeaders(config, '/api/v1/x?page=9&limit=2', pageOf({ page: 9, limit: 2 }, config), 5).Link);
  assert.equal(Object.keys(l), ['first', 'prev']);
  assert.is(l.first!.searchParams.get('page'), '1');
});

test('pageHeaders: other query parameters are kept, page and limit replaced (not repeated)', () => {
  const l = links(
    pageHeaders(config, '/api/v1/x?state=open&page=1&q=a%20b&limit=100', pageOf({ page: 1, limit: 100 }, config), 120).Link,
  );
  assert.is(l.next!.searchParams.get('state'), 'open');
  assert.is(l.next!.searchParams.get('q'), 'a b');
  assert.equal(l.next!.searchParams.getAll('page'), ['2']);
  assert.equal(l.next!.searchParams.getAll('limit'), ['50'], 'the clamped limit, not the requested one');
  assert.is(l.last!.searchParams.get('page'), '3');
});

test('pageHeaders: the links live under ROOT_URL, sub-path included', () => {
  const sub = loadConfig({ ROOT_URL: 'https://example.com/gitea' });
  const l = links(pageHeaders(sub, '/api/v1/users/a/tokens', pageOf({ limit: 1 }, sub), 2).Link);
  assert.is(l.next!.origin, 'https://example.com');
  assert.is(l.next!.pathname, '/gitea/api/v1/users/a/tokens');
});

test('pageHeaders: property — the rels match the position, and last = ceil(total / limit)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 80 }), fc.integer({ min: 0, max: 500 }), (page, limit, total) => {
      const p = pageOf({ page, limit }, config);
      const h = pageHeaders(config, '/api/v1/x', p, total);
      const l = links(h.Link);
      const last = Math.max(1, Math.ceil(total / p.limit));
      if (h['X-Total-Count'] !== String(total)) return false;
      if ((p.page < last) !== ('next' in l && 'last' in l)) return false;
      if ((p.page > 1) !== ('first' in l && 'prev' in l)) return false;
      if ('last' in l && l.last!.searchParams.get('page') !== String(last)) return false;
      if ('next' in l && l.next!.searchParams.get('page') !== String(p.page + 1)) return false;
      return !('prev' in l) || l.prev!.searchParams.get('page') === String(p.page - 1);
    }),
    { numRuns: 300 },
  );
});

test.run();
