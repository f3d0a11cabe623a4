// The request path's text check (#32): NUL and lone surrogates anywhere (values, keys, nested), named
// by field; surrogate pairs pass; a deeply nested value neither overflows the stack nor makes a long message.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { textProblem } from '../../src/api/textInput.js';

const lone = 'must be valid Unicode text (it has a lone surrogate)';
const nul = 'must not contain NUL characters';

test('names the field: values, keys, array items, a bare string, a root name', () => {
  assert.is(textProblem({ title: 'a\ud800' }), `[title]: ${lone}`);
  assert.is(textProblem({ title: '\udc00b' }), `[title]: ${lone}`);
  assert.is(textProblem({ a: { b: ['x', 'y\0'] } }), `[a.b.1]: ${nul}`);
  assert.is(textProblem({ x: 'a', y: { 'k\ud83d': 1 } }), `[y.k\ud83d]: ${lone}`);
  assert.is(textProblem('\ud800'), `[body]: ${lone}`);
  assert.is(textProblem(['a', '\0'], 'files'), `[files.1]: ${nul}`);
  assert.is(textProblem({ a: '\0', b: '\ud800' }), `[a]: ${nul}`, 'the first of an object’s own strings');
});

test('well-formed text passes: surrogate pairs, other control characters, non-strings', () => {
  for (const ok of [{ t: 'a 😀 b' }, { t: '\ud83d\ude00' }, { t: 'tab\tnew\nline' }, { n: 1, b: true, z: null, l: [1, 2] }, undefined, 42]) {
    assert.is(textProblem(ok), undefined, JSON.stringify(ok));
  }
});

test('a value nested a million deep is walked without recursion; the name in the message is cut', () => {
  let v: unknown = ['\ud800'];
  for (let i = 0; i < 1_000_000; i++) v = [v];
  const message = textProblem({ a: v })!;
  assert.ok(message.startsWith('[a.0.0.'), message.slice(0, 20));
  assert.ok(message.length < 300, `${message.length} characters`);
  assert.ok(message.endsWith(`…]: ${lone}`));
});

test.run();
