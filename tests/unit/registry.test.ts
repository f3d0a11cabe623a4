// Every operation of the spec has a registry entry and every entry an operation (the server checks
// this at start-up too); prints how far the implementation has come.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

test('the generator sorts the handlers, and refuses a file without its handler or two files of one name', () => {
  const root = mkdtempSync(join(tmpdir(), 'anvil-registry-'));
  try {
    const write = (path: string, text: string) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write('repo/repoGet.ts', 'export const repoGet = 1;\n');
    write('admin/adminCron.ts', 'export async function adminCron() {}\n');
    write('index.ts', 'the registry itself is not a handler');
    const source = registrySource(root);
    assert.ok(source.indexOf("import { adminCron } from './admin/adminCron.js';") < source.indexOf("import { repoGet } from './repo/repoGet.js';"), source);
    assert.match(source, /export const registry: Registry = \{\n {2}adminCron,\n {2}repoGet,\n\};/);
    assert.is(registrySource(root), source);
    write('repo/repoEdit.ts', 'export const editRepo = 1;\n');
    assert.throws(() => registrySource(root), /exports no handler named repoEdit/);
    write('repo/repoEdit.ts', 'export const repoEdit = 1;\n');
    write('other/repoGet.ts', 'export const repoGet = 2;\n');
    assert.throws(() => registrySource(root), /two handler files .* are named repoGet/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('operation ids are unique; prints how many operations are implemented', () => {
  const ids = ops.map((o) => o.operationId);
  assert.is(new Set(ids).size, ids.length);
  const done = ops.filter((o) => isImplemented(o.operationId)).length;
  console.log(`operations implemented: ${done} of ${ops.length}`);
  assert.ok(done > 0);
});

test.run();
