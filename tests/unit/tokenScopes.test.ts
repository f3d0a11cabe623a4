// The token-scope rule every operation's check uses (src/services/users/tokens.ts scopesAllow): `all`
// grants everything, `write:<category>` grants reading and writing it, `read:<category>` reading only,
// and nothing grants another category.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { scopeCategories, scopesAllow } from '../../src/services/users/tokens.js';

test('all grants reading and writing every category', () => {
  for (const c of scopeCategories) {
    assert.ok(scopesAllow(['all'], c, false), c);
    assert.ok(scopesAllow(['all'], c, true), c);
  }
});

test('write:<category> grants reading and writing that category alone', () => {
  for (const c of scopeCategories) {
    assert.ok(scopesAllow([`write:${c}`], c, true), c);
    assert.ok(scopesAllow([`write:${c}`], c, false), c);
    for (const other of scopeCategories.filter((o) => o !== c)) {
      assert.not.ok(scopesAllow([`write:${c}`], other, false), `${c} → ${other}`);
      assert.not.ok(scopesAllow([`write:${c}`], other, true), `${c} → ${other}`);
    }
  }
});

test('read:<category> grants reading that category, never writing it', () => {
  for (const c of scopeCategories) {
    assert.ok(scopesAllow([`read:${c}`], c, false), c);
    assert.not.ok(scopesAllow([`read:${c}`], c, true), c);
  }
});

test('no scope, or a scope of another category, grants nothing', () => {
  assert.not.ok(scopesAllow([], 'repository', false));
  assert.not.ok(scopesAllow(['read:issue', 'write:user'], 'repository', false));
  assert.not.ok(scopesAllow(['read:issue', 'write:user'], 'repository', true));
  // A scope named like a category without its read/write prefix is not a grant.
  assert.not.ok(scopesAllow(['repository'], 'repository', false));
});

test.run();
