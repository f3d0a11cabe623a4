// The commands the SSH server accepts: git's own forms, nothing else.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseGitCommand } from '../../src/transport/ssh.js';

test('git’s forms of upload-pack and receive-pack, with or without slash, quotes and .git', () => {
  const cases: Array<[string, ReturnType<typeof parseGitCommand>]> = [
    ["git-upload-pack '/acme/widgets.git'", { service: 'git-upload-pack', owner: 'acme', repo: 'widgets' }],
    ["git-receive-pack 'acme/widgets.git'", { service: 'git-receive-pack', owner: 'acme', repo: 'widgets' }],
    ['git-upload-pack acme/widgets', { service: 'git-upload-pack', owner: 'acme', repo: 'widgets' }],
    ["git upload-pack '/a-b/c.d_e.git/'", { service: 'git-upload-pack', owner: 'a-b', repo: 'c.d_e' }],
  ];
  for (const [command, want] of cases) assert.equal(parseGitCommand(command), want, command);
});

test('anything else is refused', () => {
  for (const command of ['ls /', "git-upload-archive 'a/b.git'", "git-upload-pack '/a/b/c.git'", "git-upload-pack '../etc/passwd'", "git-upload-pack 'a/b.git'; rm -rf /", '']) {
    assert.is(parseGitCommand(command), undefined, command);
  }
});

test.run();
