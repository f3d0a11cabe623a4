// CreateHookOption rules (Gitea's), the branch-filter glob, and the webhook allow list.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BadRequest, Invalid } from '../../src/services/errors.js';
import { parseAllowList } from '../../src/services/events/allowList.js';
import { branchMatches, expandEvents, hookFromCreate, hookFromEdit } from '../../src/services/events/hookOptions.js';
import { backoff } from '../../src/jobs/hookDelivery.js';

const cfg = { url: 'https://example.com/hook', content_type: 'json' };
const throws = (fn: () => unknown, kind: typeof Invalid | typeof BadRequest, message: string) => {
  try {
    fn();
  } catch (e) {
    assert.instance(e, kind);
    assert.is((e as Error).message, message);
    return;
  }
  assert.unreachable(`expected ${message}`);
};

test('events: groups expand, names are case-insensitive, unknown ones are ignored, none means push', () => {
  assert.equal(expandEvents([]), ['push']);
  assert.equal(expandEvents(undefined), ['push']);
  assert.equal(expandEvents(['bogus']), ['push']);
  assert.equal(expandEvents(['__proto__', 'constructor', 'toString', 'hasOwnProperty']), ['push'], 'names of Object.prototype are unknown names');
  assert.equal(expandEvents(['ISSUES']), ['issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment']);
  assert.equal(expandEvents(['issues_only', 'push']), ['push', 'issues']);
  assert.ok(expandEvents(['pull_request']).includes('pull_request_sync'));
  assert.equal(expandEvents(['pull_request_review']), ['pull_request_review_approved', 'pull_request_review_rejected', 'pull_request_review_comment']);
});

test('create: Gitea\'s checks in Gitea\'s order, with its messages', () => {
  throws(() => hookFromCreate({ type: 'jenkins', config: cfg }), Invalid, 'Invalid hook type: jenkins');
  throws(() => hookFromCreate({ type: 'gitea', config: { url: cfg.url } }), Invalid, 'Missing config option: content_type');
  throws(() => hookFromCreate({ type: 'gitea', config: { content_type: 'json' } }), Invalid, 'Missing config option: url');
  throws(() => hookFromCreate({ type: 'gitea', config: { ...cfg, content_type: 'xml' } }), Invalid, 'Invalid content type');
  throws(() => hookFromCreate({ type: 'gitea', config: { ...cfg, url: 'ftp://x/' } }), Invalid, 'Invalid url');
  throws(() => hookFromCreate({ type: 'gitea', config: { ...cfg, is_system_webhook: 'maybe' } }), Invalid, 'Invalid is_system_webhook value');
  throws(() => hookFromCreate({ type: 'slack', config: cfg }), Invalid, 'Missing config option: channel');
  throws(() => hookFromCreate({ type: 'slack', config: { ...cfg, channel: 'two words' } }), BadRequest, 'Invalid slack channel name');
  const h = hookFromCreate({ type: 'Gitea', config: { ...cfg, secret: 'x', extra: 'kept' } });
  assert.equal([h.type, h.active, h.events, h.secret, h.config], ['gitea', false, ['push'], 'x', { extra: 'kept' }]);
  assert.is(hookFromCreate({ type: 'gitea', config: { ...cfg, is_system_webhook: 'true' } }).isSystem, true);
});

test('edit: only what is named changes; config merges', () => {
  const h = hookFromCreate({ type: 'slack', config: { ...cfg, channel: '#a' }, events: ['create'], active: true });
  const e = hookFromEdit(h, { config: { channel: '#b' } });
  assert.equal([e.url, e.config.channel, e.events, e.active], [cfg.url, '#b', ['create'], true]);
  assert.is(hookFromEdit(h, { active: false }).active, false);
});

test('branch_filter: globs with *, ?, classes and alternatives', () => {
  assert.ok(branchMatches('', 'anything'));
  assert.ok(branchMatches('*', 'a/b'));
  assert.ok(branchMatches('release/*', 'release/1.0'));
  assert.not.ok(branchMatches('release/*', 'main'));
  assert.ok(branchMatches('{main,develop}', 'develop'));
  assert.not.ok(branchMatches('{main,develop}', 'dev'));
  assert.ok(branchMatches('v?.x', 'v1.x'));
  assert.ok(branchMatches('[abc]-*', 'b-topic'));
  assert.not.ok(branchMatches('[!abc]-*', 'b-topic'));
  assert.ok(branchMatches('a.b', 'a.b'));
  assert.not.ok(branchMatches('a.b', 'axb'), 'a dot is literal');
  throws(() => hookFromCreate({ type: 'gitea', config: cfg, branch_filter: '{open' }), Invalid, '[BranchFilter]: GlobPattern (unclosed { in {open)');
});

test('allow list: external, private, loopback, *, CIDRs and host globs, judged on the address', () => {
  const ext = parseAllowList('external');
  assert.ok(ext.allows('example.com', '93.184.216.34'));
  for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '::1', 'fd00::1', '0.0.0.0', '::ffff:127.0.0.1']) {
    assert.not.ok(ext.allows('h', ip), ip);
  }
  assert.ok(parseAllowList('loopback').allows('localhost', '127.0.0.1'));
  assert.not.ok(parseAllowList('loopback').allows('h', '10.0.0.1'));
  assert.ok(parseAllowList('private').allows('h', '192.168.0.9'));
  assert.ok(parseAllowList('*').allows('h', '127.0.0.1'));
  assert.ok(parseAllowList('10.0.0.0/8').allows('h', '10.9.9.9'));
  assert.not.ok(parseAllowList('10.0.0.0/8').allows('h', '11.0.0.1'));
  assert.ok(parseAllowList('*.internal.example').allows('ci.internal.example', '10.0.0.5'));
  assert.not.ok(parseAllowList('*.internal.example').allows('ci.example', '10.0.0.5'));
});

test('backoff: 10 s doubling, at most 6 h', () => {
  const base = 10_000;
  const max = 6 * 3600_000;
  assert.equal([1, 2, 3, 4].map((n) => backoff(n, base, max)), [10_000, 20_000, 40_000, 80_000]);
  assert.is(backoff(11, base, max), 10_240_000);
  assert.is(backoff(12, base, max), 20_480_000);
  assert.is(backoff(13, base, max), max);
  assert.is(backoff(1000, base, max), max, 'no overflow');
});

test.run();
