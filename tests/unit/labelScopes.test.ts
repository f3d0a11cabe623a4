import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dropDuplicateScopes, exclusiveScope } from '../../src/services/issues/issueLabels.js';

test('exclusiveScope: the name up to its last slash, for exclusive labels with a non-empty scope and name', () => {
  assert.is(exclusiveScope({ name: 'prio/high', exclusive: true }), 'prio');
  assert.is(exclusiveScope({ name: 'a/b/c', exclusive: true }), 'a/b');
  assert.is(exclusiveScope({ name: 'prio/high', exclusive: false }), '');
  for (const name of ['plain', '/lead', 'trail/']) assert.is(exclusiveScope({ name, exclusive: true }), '', name);
});

test('dropDuplicateScopes: the last label of each exclusive scope stays, others untouched, order kept', () => {
  const l = (name: string, exclusive = true) => ({ name, exclusive });
  const given = [l('p/1'), l('x'), l('p/2'), l('q/1'), l('p/3', false), l('p/4')];
  assert.equal(dropDuplicateScopes(given).map((x) => x.name), ['x', 'q/1', 'p/3', 'p/4']);
});

test.run();
