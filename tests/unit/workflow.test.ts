// Workflow files: parsing errors, GitHub's filter patterns, push filters, matrix expansion, the single-job
// payloads, what runs after its needs, and a run's state from its jobs'.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import fc from 'fast-check';
import { aggregateState } from '../../src/services/actions/runs.js';
import { expandMatrix, filterPattern, matchesPullRequest, matchesPush, parseWorkflow, planJobs, runsAfterNeeds, WorkflowError } from '../../src/services/actions/workflow.js';
import { actionStates } from '../../src/db/schema/index.js';

const wf = (on: string, jobs = 'jobs:\n  a:\n    runs-on: x\n') => parseWorkflow(`on: ${on}\n${jobs}`);

test('parse errors say what is wrong', () => {
  const cases: Array<[string, RegExp]> = [
    ['on: [push\n', /invalid YAML/],
    ['- a\n- b\n', /must be a mapping/],
    ['jobs:\n  a:\n    runs-on: x\n', /"on" is missing/],
    ['on: push\n', /"jobs" is missing or empty/],
    ['on: push\njobs:\n  a: 3\n', /job "a" is not a mapping/],
    ['on: push\njobs:\n  a:\n    steps: []\n', /job "a": "runs-on" is missing/],
    ['on: push\njobs:\n  a:\n    runs-on: x\n    needs: [b]\n', /job "a" needs "b", which does not exist/],
    ['on: push\njobs:\n  a:\n    runs-on: x\n    needs: b\n  b:\n    runs-on: x\n    needs: a\n', /a cycle in "needs"/],
  ];
  for (const [text, message] of cases) {
    try {
      parseWorkflow(text);
      assert.unreachable(text);
    } catch (err) {
      assert.instance(err, WorkflowError, text);
      assert.match((err as Error).message, message, text);
    }
  }
  // `on` as a name, a list and a map.
  assert.equal(Object.keys(wf('push').on), ['push']);
  assert.equal(Object.keys(wf('[push, pull_request]').on), ['push', 'pull_request']);
  assert.equal(Object.keys(parseWorkflow('on:\n  push:\n  schedule:\n    - cron: "0 0 * * *"\njobs:\n  a:\n    runs-on: x\n').on), ['push', 'schedule']);
});

test('filter patterns: *, **, ?, +, classes, and literal dots', () => {
  const m = (p: string, s: string) => filterPattern(p).test(s);
  assert.ok(m('feature/*', 'feature/x'));
  assert.not.ok(m('feature/*', 'feature/x/y'));
  assert.ok(m('feature/**', 'feature/x/y'));
  assert.ok(m('**', 'a/b/c'));
  assert.ok(m('v1.*', 'v1.2'));
  assert.not.ok(m('v1.*', 'v1x2'), 'a dot is literal');
  assert.ok(m('v[12].0', 'v2.0'));
  assert.ok(m('ab?c', 'ac'));
  assert.ok(m('ab+c', 'abbbc'));
  assert.not.ok(m('ab+c', 'ac'));
  assert.ok(m('docs/**/*.md', 'docs/a/b.md'));
  // Any string with regexp characters is a valid pattern and matches itself when it has no wildcards.
  fc.assert(fc.property(fc.string({ maxLength: 20 }).filter((s) => !/[*?+[\]]/.test(s)), (s) => filterPattern(s).test(s)));
});

test('push filters: branches, tags, their ignores, negations and paths', () => {
  const on = (filter: string) => wf(`\n  push:\n${filter.replace(/^/gm, '    ')}`);
  const heads = (name: string, paths?: string[]) => ({ ref: `refs/heads/${name}`, paths });
  const tags = (name: string) => ({ ref: `refs/tags/${name}` });
  assert.ok(matchesPush(wf('push'), heads('any')));
  assert.ok(matchesPush(wf('push'), tags('v1')));
  assert.not.ok(matchesPush(wf('pull_request'), heads('main')));
  const main = on('branches: [main, "release/**", "!release/old"]');
  assert.ok(matchesPush(main, heads('main')));
  assert.ok(matchesPush(main, heads('release/1.0')));
  assert.not.ok(matchesPush(main, heads('release/old')), 'a later ! pattern excludes');
  assert.not.ok(matchesPush(main, tags('v1')), 'only branches filtered: tags never');
  const release = on('tags: ["v*"]');
  assert.ok(matchesPush(release, tags('v1.0')));
  assert.not.ok(matchesPush(release, heads('main')), 'only tags filtered: branches never');
  const ignore = on('branches-ignore: ["wip/*"]');
  assert.not.ok(matchesPush(ignore, heads('wip/x')));
  assert.ok(matchesPush(ignore, heads('main')));
  const docs = on('paths: ["docs/**", "!docs/drafts/**"]');
  assert.ok(matchesPush(docs, heads('main', ['src/a.ts', 'docs/a.md'])));
  assert.not.ok(matchesPush(docs, heads('main', ['docs/drafts/x.md'])));
  assert.not.ok(matchesPush(docs, heads('main', [])));
  assert.ok(matchesPush(docs, tags('v1')), 'paths are not evaluated for tags');
  const notDocs = on('paths-ignore: ["**.md"]');
  assert.not.ok(matchesPush(notDocs, heads('main', ['README.md', 'docs/x.md'])));
  assert.ok(matchesPush(notDocs, heads('main', ['README.md', 'src/x.ts'])));
});

test('pull request filters: types (default opened, synchronize, reopened), base branches, paths', () => {
  const pr = (filter: string) => wf(`\n  pull_request:\n${filter.replace(/^/gm, '    ')}`);
  assert.ok(matchesPullRequest(wf('pull_request'), { action: 'opened', baseBranch: 'main' }));
  assert.ok(matchesPullRequest(wf('pull_request'), { action: 'synchronize', baseBranch: 'x' }));
  assert.not.ok(matchesPullRequest(wf('pull_request'), { action: 'closed', baseBranch: 'main' }));
  assert.not.ok(matchesPullRequest(wf('push'), { action: 'opened', baseBranch: 'main' }));
  assert.not.ok(matchesPullRequest(pr('types: [opened]'), { action: 'synchronize', baseBranch: 'main' }));
  assert.ok(matchesPullRequest(pr('branches: ["release/*"]'), { action: 'opened', baseBranch: 'release/1' }));
  assert.not.ok(matchesPullRequest(pr('branches: ["release/*"]'), { action: 'opened', baseBranch: 'main' }));
  assert.not.ok(matchesPullRequest(pr('branches-ignore: [main]'), { action: 'opened', baseBranch: 'main' }));
  assert.ok(matchesPullRequest(pr('paths: ["src/**"]'), { action: 'opened', baseBranch: 'main', paths: ['src/a.ts'] }));
  assert.not.ok(matchesPullRequest(pr('paths: ["src/**"]'), { action: 'opened', baseBranch: 'main', paths: ['README.md'] }));
});

test('matrix: product, exclude, include extending or adding', () => {
  assert.equal(expandMatrix({ os: ['a', 'b'], v: [1, 2] }), [{ os: 'a', v: 1 }, { os: 'a', v: 2 }, { os: 'b', v: 1 }, { os: 'b', v: 2 }]);
  assert.equal(expandMatrix({ os: ['a', 'b'], v: [1, 2], exclude: [{ os: 'b', v: 1 }] }).length, 3);
  assert.equal(expandMatrix({ os: ['a', 'b'], include: [{ os: 'a', extra: true }, { os: 'c' }] }), [{ os: 'a', extra: true }, { os: 'b' }, { os: 'c' }]);
  assert.equal(expandMatrix({ include: [{ x: 1 }, { x: 2 }] }), [{ x: 1 }, { x: 2 }]);
  assert.equal(expandMatrix('${{ fromJSON(x) }}'), []);
});

test('planned jobs: names, labels from the matrix, needs, condition, steps, and a payload with only that job', () => {
  const jobs = planJobs(parseWorkflow(`
name: Build
on: push
env:
  A: b
jobs:
  build:
    name: build on \${{ matrix.os }}
    strategy:
      matrix:
        os: [linux, windows]
    runs-on: \${{ matrix.os }}
    steps:
      - uses: actions/checkout@v4
      - run: |
          make
          make test
  after:
    needs: [build]
    if: \${{ always() }}
    runs-on: [self-hosted, linux]
    steps:
      - name: Report
        run: echo
`));
  assert.equal(jobs.map((j) => [j.jobId, j.name, j.runsOn, j.needs, j.condition]), [
    ['build', 'build on linux', ['linux'], [], ''],
    ['build', 'build on windows', ['windows'], [], ''],
    ['after', 'after', ['self-hosted', 'linux'], ['build'], 'always()'],
  ]);
  assert.equal(jobs[0]!.steps, ['Run actions/checkout@v4', 'Run make']);
  const payload = parse(jobs[1]!.payload) as Record<string, unknown>;
  assert.equal(payload, {
    name: 'Build', on: 'push', env: { A: 'b' },
    jobs: { build: { name: 'build on windows', strategy: { matrix: { os: ['windows'] } }, 'runs-on': 'windows', steps: [{ uses: 'actions/checkout@v4' }, { run: 'make\nmake test\n' }] } },
  });
});

test('after needs: success by default, always(), failure(), cancelled(), false', () => {
  assert.ok(runsAfterNeeds('', ['success', 'success']));
  assert.not.ok(runsAfterNeeds('', ['success', 'failure']));
  assert.not.ok(runsAfterNeeds('', ['skipped']), 'a skipped need skips its dependants');
  assert.ok(runsAfterNeeds('always()', ['failure']));
  assert.ok(runsAfterNeeds('failure()', ['failure']));
  assert.not.ok(runsAfterNeeds('failure()', ['success']));
  assert.ok(runsAfterNeeds('cancelled()', ['cancelled']));
  assert.not.ok(runsAfterNeeds('false', ['success']));
});

test('a run state from its jobs', () => {
  assert.is(aggregateState(['success', 'skipped']), 'success');
  assert.is(aggregateState(['success', 'failure', 'cancelled']), 'failure');
  assert.is(aggregateState(['success', 'cancelled']), 'cancelled');
  assert.is(aggregateState(['skipped', 'skipped']), 'skipped');
  assert.is(aggregateState(['success', 'running', 'waiting']), 'running');
  assert.is(aggregateState(['success', 'blocked', 'waiting']), 'waiting');
  assert.is(aggregateState(['failure', 'blocked']), 'blocked');
  // Done exactly when every job is done.
  fc.assert(fc.property(fc.array(fc.constantFrom(...actionStates), { minLength: 1, maxLength: 6 }), (states) => {
    const done = (s: string) => ['success', 'failure', 'cancelled', 'skipped'].includes(s);
    assert.is(done(aggregateState(states)), states.every(done));
  }));
});

test.run();
