// The built-in runner's expression evaluator (src/runner/expressions.ts) and $GITHUB_OUTPUT parsing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { condition, evaluate, interpolate, type Scope } from '../../src/runner/expressions.js';
import { parseKeyValueFile } from '../../src/runner/executor.js';
import { Masker } from '../../src/runner/reporter.js';

const scope = (status = { failed: false, cancelled: false }): Scope => ({
  contexts: {
    github: { ref: 'refs/heads/main', event_name: 'push', event: { commits: [{ id: 'a' }, { id: 'b' }] } },
    env: { NAME: 'World' }, matrix: { os: 'linux', n: 3 }, needs: { build: { result: 'success', outputs: { v: '1.2' } } },
    steps: { s1: { outputs: { x: 'y' }, outcome: 'success', conclusion: 'success' } }, secrets: {}, vars: { LEVEL: '2' }, inputs: {},
  },
  status,
});

test('literals, contexts, operators and GitHub\'s loose comparison', () => {
  const s = scope();
  assert.is(evaluate("github.ref == 'REFS/HEADS/MAIN'", s), true);
  assert.is(evaluate("github['event_name']", s), 'push');
  assert.is(evaluate('matrix.n > 2 && matrix.n <= 3', s), true);
  assert.is(evaluate("vars.LEVEL == 2", s), true);
  assert.is(evaluate("!startsWith(github.ref, 'refs/tags/')", s), true);
  assert.is(evaluate('github.nothing.deeper', s), null);
  assert.equal(evaluate('github.event.commits.*.id', s), ['a', 'b']);
  assert.is(evaluate("contains(github.event.commits.*.id, 'b')", s), true);
  assert.is(evaluate("format('{0}-{1} {{x}}', matrix.os, matrix.n)", s), 'linux-3 {x}');
  assert.is(evaluate("join(github.event.commits.*.id, '+')", s), 'a+b');
  assert.equal(evaluate("fromJSON('{\"a\":[1,2]}').a", s), [1, 2]);
  assert.is(evaluate("null || 'fallback'", s), 'fallback');
  assert.is(evaluate("'it''s'", s), "it's");
  assert.is(evaluate('0x10 == 16', s), true);
  assert.throws(() => evaluate('nope.x', s), /Unrecognized named-value/);
  assert.throws(() => evaluate('unknownFn()', s), /Unknown function/);
  assert.throws(() => evaluate('a b', s));
});

test('interpolation and if: conditions (success() implied, status functions)', () => {
  assert.is(interpolate('Hello ${{ env.NAME }} v${{ needs.build.outputs.v }} ${{ steps.s1.outputs.x }}', scope()), 'Hello World v1.2 y');
  assert.is(interpolate("${{ '}}' }}", scope()), '}}');
  assert.is(condition(undefined, scope()), true);
  assert.is(condition(undefined, scope({ failed: true, cancelled: false })), false);
  assert.is(condition("github.event_name == 'push'", scope({ failed: true, cancelled: false })), false);
  assert.is(condition('${{ failure() }}', scope({ failed: true, cancelled: false })), true);
  assert.is(condition('always()', scope({ failed: false, cancelled: true })), true);
  assert.is(condition('cancelled()', scope({ failed: false, cancelled: true })), true);
  assert.is(condition("${{ matrix.os == 'windows' }}", scope()), false);
  assert.is(condition(false, scope()), false);
});

test('$GITHUB_OUTPUT / $GITHUB_ENV files: name=value and heredocs', () => {
  assert.equal(parseKeyValueFile('a=1\nb=x=y\nmulti<<EOF\nline 1\nline 2\nEOF\n'), { a: '1', b: 'x=y', multi: 'line 1\nline 2' });
  assert.throws(() => parseKeyValueFile('x<<END\nnever closed\n'), /delimiter/);
  assert.throws(() => parseKeyValueFile('no equals sign'), /Invalid format/);
});

test('masking: every secret, each line of a multi-line one, longest first', () => {
  const m = new Masker();
  m.add('s3cret');
  m.add('s3cret-longer');
  m.add('line one\nline two');
  m.add('');
  assert.is(m.mask('a s3cret-longer and s3cret; line two'), 'a *** and ***; ***');
  assert.is(m.mask('nothing here'), 'nothing here');
});

test.run();
