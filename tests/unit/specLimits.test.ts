// One limit per field (#32): a property an Edit…Option shares with its Create…Option has the same
// maxLength, so an edit cannot store what creation refuses.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadSpec } from '../../src/api/spec.js';

type Schema = { maxLength?: number; anyOf?: Schema[]; oneOf?: Schema[]; properties?: Record<string, Schema>; $ref?: string };

const schemas = loadSpec().components.schemas as Record<string, Schema>;

/** The longest string the property allows (an alternative of length 0, "empty means not given", aside). */
function maxLengthOf(s: Schema): number | undefined {
  if (s.maxLength !== undefined) return s.maxLength;
  const alts = [...(s.anyOf ?? []), ...(s.oneOf ?? [])].map((a) => a.maxLength).filter((n): n is number => n !== undefined && n > 0);
  return alts.length ? Math.max(...alts) : undefined;
}

const pairs = Object.keys(schemas)
  .filter((name) => name.startsWith('Edit'))
  .map((edit) => [edit, `Create${edit.slice(4)}`, `Create${edit.slice(4).replace(/Options$/, 'Option')}`] as const)
  .flatMap(([edit, ...creates]) => creates.filter((c) => schemas[c]).slice(0, 1).map((create) => [edit, create] as const));

test('every edit option has its create option to compare with (the pairing finds them)', () => {
  const names = pairs.map(([e]) => e);
  for (const expected of ['EditPullRequestOption', 'EditMilestoneOption', 'EditHookOption', 'EditIssueOption', 'EditRepoOption', 'EditUserOption']) {
    assert.ok(names.includes(expected), expected);
  }
});

test('a field shared by an edit and a create option has one maxLength', () => {
  const differing: string[] = [];
  for (const [edit, create] of pairs) {
    for (const [field, schema] of Object.entries(schemas[edit]!.properties ?? {})) {
      const created = schemas[create]!.properties?.[field];
      if (created && maxLengthOf(created) !== maxLengthOf(schema)) {
        differing.push(`${edit}.${field}: ${maxLengthOf(schema)} vs ${create}.${field}: ${maxLengthOf(created)}`);
      }
    }
  }
  assert.equal(differing, []);
});

test.run();
