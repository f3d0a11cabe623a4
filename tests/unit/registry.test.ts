// Every operation of the spec has a registry entry and every entry an operation (the server checks
// this at start-up too); prints how far the implementation has come.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isImplemented, registryMismatch } from '../../src/api/router.js';
import { loadSpec, specOperations } from '../../src/api/spec.js';
import { registryPath, registrySource } from '../../scripts/registry.js';

const ops = specOperations(loadSpec());

test('the registry and the spec name the same operations', () => {
  assert.equal(registryMismatch(ops), { missing: [], extra: [] });
});

test('the registry is the one make generate writes from the handler files', () => {
  assert.ok(readFileSync(registryPath, 'utf8') === registrySource(), `${registryPath} is stale: run make generate`);
});

test('operation ids are unique; prints how many operations are implemented', () => {
  const ids = ops.map((o) => o.operationId);
  assert.is(new Set(ids).size, ids.length);
  const done = ops.filter((o) => isImplemented(o.operationId)).length;
  console.log(`operations implemented: ${done} of ${ops.length}`);
  assert.ok(done > 0);
});

test.run();
