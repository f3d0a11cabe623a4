import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mentionedNames } from '../../src/services/notifications/mentions.js';

test('mentions after a space, the start, ( or [, before a space, the end or punctuation', () => {
  assert.equal(mentionedNames('@alice please look'), ['alice']);
  assert.equal(mentionedNames('cc @Bob, @carol.'), ['bob', 'carol']);
  assert.equal(mentionedNames('(@dave) [@erin] @frank: done? @gina!'), ['dave', 'erin', 'frank', 'gina']);
  assert.equal(mentionedNames("@h-i_j's idea"), ['h-i_j']);
  assert.equal(mentionedNames('line\n@kim\n@lee'), ['kim', 'lee']);
  assert.equal(mentionedNames('@alice @ALICE @alice'), ['alice']);
  assert.equal(mentionedNames('@a.b.c ends.'), ['a.b.c']);
});

test('no mention: e-mail addresses, glued text, code', () => {
  assert.equal(mentionedNames('mail me@example.com or x@y'), []);
  assert.equal(mentionedNames('a@b @c@d @e/f'), []);
  assert.equal(mentionedNames('`@inline` and ``@double ` tick``'), []);
  assert.equal(mentionedNames('```\n@fenced\n```\nafter @real'), ['real']);
  assert.equal(mentionedNames('~~~js\n@tilde\n~~~'), []);
  assert.equal(mentionedNames('    @indented code\n@text'), ['text']);
  assert.equal(mentionedNames('```\n@unclosed fence\n@still code'), []);
  assert.equal(mentionedNames('@'), []);
});

test.run();
