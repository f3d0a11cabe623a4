// Which branches a protection rule names (src/services/git/branchProtections.ts): an exact name matches
// itself only; a glob (any of * ? [) matches with `*` inside one path segment, `**` across segments and
// `?` one character, everything else literally.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BranchProtectionService, defaultSettings, globSource, isGlobRule, ruleMatches } from '../../src/services/git/branchProtections.js';
import type { ServiceDeps } from '../../src/services/context.js';

test('a rule is a glob when it has *, ? or [', () => {
  for (const g of ['*', 'release/*', 'v?', 'feat[12]', 'a**b']) assert.ok(isGlobRule(g), g);
  for (const n of ['main', 'release/1.0', 'a.b+c', 'x{1}']) assert.not.ok(isGlobRule(n), n);
});

test('an exact name matches that branch only', () => {
  assert.ok(ruleMatches('main', 'main'));
  assert.not.ok(ruleMatches('main', 'main2'));
  assert.not.ok(ruleMatches('main', 'xmain'));
  assert.not.ok(ruleMatches('release/1.0', 'release/1x0'));
});

test('* stays within one path segment, ** crosses them', () => {
  assert.ok(ruleMatches('release/*', 'release/1.0'));
  assert.not.ok(ruleMatches('release/*', 'release/1.0/hotfix'));
  assert.not.ok(ruleMatches('release/*', 'release'));
  assert.ok(ruleMatches('release/**', 'release/1.0/hotfix'));
  assert.ok(ruleMatches('**', 'a/b/c'));
  assert.ok(ruleMatches('*', 'main'));
  assert.not.ok(ruleMatches('*', 'feature/x'));
  // The whole name, never a part of it.
  assert.not.ok(ruleMatches('rel*', 'prerelease'));
  assert.not.ok(ruleMatches('*-rc', 'v1-rc-2'));
});

test('? is one character of a segment', () => {
  assert.ok(ruleMatches('v?', 'v1'));
  assert.not.ok(ruleMatches('v?', 'v10'));
  assert.not.ok(ruleMatches('v?', 'v'));
  assert.not.ok(ruleMatches('a?b', 'a/b'));
});

test('every other character of a glob is literal', () => {
  assert.ok(ruleMatches('v1.*', 'v1.2'));
  assert.not.ok(ruleMatches('v1.*', 'v1x2'));
  assert.ok(ruleMatches('a+b/*', 'a+b/c'));
  assert.not.ok(ruleMatches('a+b/*', 'aab/c'));
  assert.ok(ruleMatches('(x)|y*', '(x)|yz'));
  assert.ok(ruleMatches('$x^*', '$x^1'));
  assert.equal(globSource('a.b*'), 'a\\.b[^/]*');
  assert.equal(globSource('x/**'), 'x/.*');
  assert.equal(globSource('x?'), 'x[^/]');
});

test('a repository\'s rules in Gitea\'s order: exact names first, then globs by priority, then by age', () => {
  const row = (id: number, ruleName: string, priority: number) =>
    ({ id, repo_id: 1, rule_name: ruleName, priority, settings: defaultSettings(), created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' });
  const read = new BranchProtectionService({} as ServiceDeps).rulesRead(1);
  const rows = [row(1, 'rel*', 2), row(2, 'main', 9), row(3, '*', 1), row(4, 'dev', 0), row(5, 'r*', 1), row(6, 'x?', 2)];
  assert.equal(read.map(rows).map((r) => r.ruleName), ['dev', 'main', '*', 'r*', 'rel*', 'x?']);
  // Exact names among themselves by priority too; equal priorities by id.
  assert.equal(read.map([row(8, 'b', 1), row(7, 'a', 1), row(9, 'c', 0)]).map((r) => r.ruleName), ['c', 'a', 'b']);
});

test.run();
