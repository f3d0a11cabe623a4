// The SSH host key made on first start: a key ssh2 would refuse to load is never written (ssh2's ed25519
// generator makes one in about 256; the server could then never start on that data folder).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ssh2 from 'ssh2';
import { hostKey } from '../../src/transport/ssh.js';

test('a generated key ssh2 cannot parse is replaced before it is written; the written key loads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'anvil-hostkey-'));
  try {
    const good = ssh2.utils.generateKeyPairSync('ed25519');
    const bad = { private: '-----BEGIN OPENSSH PRIVATE KEY-----\nbroken\n-----END OPENSSH PRIVATE KEY-----\n', public: 'ssh-ed25519 broken' };
    const made = [bad, bad, good];
    const utils = {
      ...ssh2.utils,
      generateKeyPairSync: () => made.shift()!,
    } as unknown as typeof ssh2.utils;
    const key = hostKey(dir, utils);
    assert.is(made.length, 0, 'two broken keys were passed over');
    assert.is(key.toString(), good.private);
    assert.not.instance(ssh2.utils.parseKey(readFileSync(join(dir, 'ssh', 'anvil_host_ed25519'))), Error);
    assert.is(hostKey(dir, utils).toString(), good.private, 'a second start reads the same key');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
