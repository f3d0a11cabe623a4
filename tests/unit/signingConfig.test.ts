// SIGNING_* settings as Gitea reads `[repository.signing]`: Gitea's defaults; `never`/`always` anywhere in a
// list is the whole answer; an empty list is never; a word that is no rule, or a format that is neither
// openpgp nor ssh, stops the start; `none` and `default` mean no key.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, loadConfig } from '../../src/config.js';

const signing = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/anvil-config-test', ...env }).signing;

test("defaults: no key; Gitea's rules", () => {
  const s = signing({});
  assert.is(s.keyFile, undefined);
  assert.equal(s.initialCommit, ['always']);
  assert.equal(s.crudActions, ['pubkey', 'twofa', 'parentsigned']);
  assert.equal(s.wiki, ['never']);
  assert.equal(s.merges, ['pubkey', 'twofa', 'basesigned', 'commitssigned']);
});

test('none and default are no key; a path is resolved', () => {
  for (const v of ['none', 'default', '', ' ']) assert.is(signing({ SIGNING_KEY: v }).keyFile, undefined, v);
  assert.is(signing({ SIGNING_KEY: '/etc/anvil/key.asc' }).keyFile, '/etc/anvil/key.asc');
});

test('rule lists: case and spaces ignored; never or always decides alone; empty is never', () => {
  assert.equal(signing({ SIGNING_MERGES: ' Approved , HEADSIGNED' }).merges, ['approved', 'headsigned']);
  assert.equal(signing({ SIGNING_MERGES: 'pubkey, always, never' }).merges, ['always']);
  assert.equal(signing({ SIGNING_CRUD_ACTIONS: 'twofa, never' }).crudActions, ['never']);
  assert.equal(signing({ SIGNING_WIKI: ' , ' }).wiki, ['never']);
});

test('a word that is no rule, or an unknown format: ConfigError', () => {
  assert.throws(() => signing({ SIGNING_WIKI: 'sometimes' }), (e: unknown) => e instanceof ConfigError && /SIGNING_WIKI/.test((e as Error).message));
  assert.throws(() => signing({ SIGNING_FORMAT: 'x509' }), (e: unknown) => e instanceof ConfigError && /SIGNING_FORMAT/.test((e as Error).message));
  assert.is(signing({ SIGNING_FORMAT: 'SSH' }).format, 'ssh');
});

test.run();
