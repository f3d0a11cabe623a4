// The statement-kind label of anvil_db_query_duration_seconds: a fixed set, whatever the SQL says.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { statementKind } from '../../src/db/queryMetrics.js';

test('the first word names the kind; anything else is other', () => {
  assert.is(statementKind('select "id" from "users" where "users"."id" = $1'), 'select');
  assert.is(statementKind('  \n\tSELECT 1'), 'select');
  assert.is(statementKind('insert into "issues" ("id") values (default)'), 'insert');
  assert.is(statementKind('update "repositories" set "num_stars" = 1'), 'update');
  assert.is(statementKind('DELETE FROM "stars"'), 'delete');
  assert.is(statementKind('select(1)'), 'select');
  assert.is(statementKind('select'), 'select');
  for (const other of ['with x as (select 1) select * from x', 'selected', 'truncate "users"', 'begin', '', 'updates set x']) {
    assert.is(statementKind(other), 'other', other);
  }
});

test.run();
