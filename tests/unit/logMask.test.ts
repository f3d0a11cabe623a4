// The logger's masking (src/log.ts): credentials in any part of a line go, everything else stays.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger, maskSecrets } from '../../src/log.js';

function logged(fn: (log: ReturnType<typeof createLogger>) => void): string {
  const lines: string[] = [];
  fn(createLogger('info', 'json', { write: (l: string) => void lines.push(l) }));
  return lines.join('');
}

const token = '0123456789abcdef0123456789abcdef01234567';

test('query credentials, URL user information and Authorization values, wherever they are in the line', () => {
  const err = Object.assign(new Error(`fetch https://bob:hunter2@example.com/x.git?access_token=${token} failed`), {
    stderr: `fatal: Authorization: Basic Ym9iOmh1bnRlcjI= rejected for http://oauth2:${token}@127.0.0.1:3000/a/b.git\n`,
  });
  const out = logged((log) => {
    log.error({ err, url: `/api/v1/user?token=${token}&sudo=root`, headers: { authorization: `token ${token}`, 'x-gitea-otp': '123456', cookie: 'i_like_gitea=abc123' } }, `bearer ${token}`);
    log.warn({ remote: 'ssh://git:s3cret@example.com:22/a.git' }, 'mirror');
  });
  for (const secret of [token, 'hunter2', 'Ym9iOmh1bnRlcjI=', '123456', 'abc123', 's3cret', 'sudo=root']) assert.not.ok(out.includes(secret), `${secret} in ${out}`);
  for (const kept of ['https://<credentials>@example.com/x.git?access_token=*****', 'http://<credentials>@127.0.0.1:3000/a/b.git',
    '/api/v1/user?token=*****&sudo=*****', '"authorization":"*****"', '"msg":"bearer *****"', 'Basic *****', 'ssh://<credentials>@example.com:22/a.git']) {
    assert.ok(out.includes(kept), `${kept} not in ${out}`);
  }
});

test('prose, commit ids, and URLs without credentials are left alone', () => {
  for (const text of ['basic authentication with a password is required', 'token does not have at least one of required scope(s): [read:user]',
    `commit ${token} pushed to refs/heads/main`, 'http://127.0.0.1:3000/api/v1/repos/a/b/issues?state=open&tokens=1', 'alice@example.com']) {
    assert.is(maskSecrets(text), text);
  }
  // The first start's generated administrator password is printed once on purpose (README).
  const once = logged((log) => log.warn({ username: 'siteadmin', password: 'Xy12abcdEFGH' }, 'created the site administrator with a generated password'));
  assert.ok(once.includes('"password":"Xy12abcdEFGH"'), once);
});

test.run();
