import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Invalid } from '../../src/services/errors.js';
import { checkEmail, checkOwnerName } from '../../src/services/names.js';

/** The Invalid error `fn` throws, or undefined. */
function invalid(fn: () => void): Invalid | undefined {
  try {
    fn();
  } catch (err) {
    assert.instance(err, Invalid, `threw ${String(err)}, not Invalid`);
    return err as Invalid;
  }
  return undefined;
}

// --- user and organization names -----------------------------------------------------------------

test('checkOwnerName: ordinary names pass', () => {
  for (const name of ['a', 'Z', '0', 'alice', 'Alice42', '1st', 'a.b', 'a-b', 'a_b', 'a.b-c_d', 'x'.repeat(40), 'gitea', 'ghostly', 'apis', 'api2']) {
    assert.is(invalid(() => checkOwnerName(name)), undefined, name);
  }
});

test('checkOwnerName: empty is Required, over 40 is MaxSize, naming the field', () => {
  assert.is(invalid(() => checkOwnerName(''))!.message, '[username]: Required');
  assert.is(invalid(() => checkOwnerName('a'.repeat(41)))!.message, '[username]: MaxSize');
  assert.is(invalid(() => checkOwnerName('', 'org'))!.message, '[org]: Required');
  assert.is(invalid(() => checkOwnerName('a'.repeat(41), 'org'))!.message, '[org]: MaxSize');
});

test('checkOwnerName: bad first characters, consecutive or trailing - . _, other characters', () => {
  const bad = [
    '-abc', '.abc', '_abc', 'abc-', 'abc.', 'abc_', 'a..b', 'a--b', 'a__b', 'a-.b', 'a._b', 'a_-b',
    'a b', ' a', 'a ', 'a/b', 'a\\b', 'a@b', 'a+b', 'a:b', 'ä', 'añb', 'a\nb', 'a\u0000', '日本',
  ];
  for (const name of bad) {
    const err = invalid(() => checkOwnerName(name));
    assert.ok(err, JSON.stringify(name));
    assert.match(err!.message, /^\[username\]: Username should contain only alphanumeric/, JSON.stringify(name));
  }
  assert.match(invalid(() => checkOwnerName('-x', 'org'))!.message, /^\[org\]: /);
});

test('checkOwnerName: reserved names, case-insensitively', () => {
  const reserved = [
    'api', 'metrics', 'v2', 'assets', 'attachments', 'avatar', 'avatars', 'repo-avatars', 'captcha',
    'login', 'org', 'repo', 'user', 'explore', 'issues', 'pulls', 'milestones', 'notifications', 'favicon.ico',
    'manifest.json', 'robots.txt', 'sitemap.xml', 'ssh_info', 'swagger.v1.json', 'ghost', 'gitea-actions',
    'admin', 'new', 'debug', 'error', 'search',
  ];
  for (const name of reserved) {
    for (const variant of [name, name.toUpperCase(), name[0]!.toUpperCase() + name.slice(1)]) {
      const err = invalid(() => checkOwnerName(variant));
      assert.ok(err, variant);
      assert.is(err!.message, `name is reserved [name: ${variant}]`);
    }
  }
});

test('checkOwnerName: ".", ".." and ".well-known" are refused (by the pattern, before the reserved list)', () => {
  for (const name of ['.', '..', '.well-known']) assert.match(invalid(() => checkOwnerName(name))!.message, /^\[username\]: /);
});

test('checkOwnerName: reserved patterns *.keys, *.gpg, *.rss, *.atom, *.png, case-insensitively', () => {
  for (const suffix of ['.keys', '.gpg', '.rss', '.atom', '.png']) {
    for (const name of [`foo${suffix}`, `FOO${suffix.toUpperCase()}`, `a-b${suffix}`]) {
      const err = invalid(() => checkOwnerName(name));
      assert.ok(err, name);
      assert.is(err!.message, `name pattern is not allowed [pattern: *${suffix}]`);
    }
  }
  for (const name of ['keys', 'foo.key', 'foo.keysx', 'foo.pngs', 'gpg']) {
    assert.is(invalid(() => checkOwnerName(name)), undefined, `${name} is not a reserved pattern`);
  }
});

test('checkOwnerName: property — anything that passes fits Gitea\'s username rule', () => {
  const pattern = /^[\da-zA-Z][-.\w]*$/;
  fc.assert(
    fc.property(fc.string({ maxLength: 45 }), (name) => {
      const passed = invalid(() => checkOwnerName(name)) === undefined;
      if (!passed) return true;
      return name.length >= 1 && name.length <= 40 && pattern.test(name) && !/[-._]{2,}|[-._]$/.test(name);
    }),
    { numRuns: 1000 },
  );
});

test('checkOwnerName: property — alphanumeric names with single inner separators pass unless reserved', () => {
  const alnum = fc.stringMatching(/^[a-zA-Z0-9]{1,6}$/);
  const name = fc
    .tuple(alnum, fc.array(fc.tuple(fc.constantFrom('-', '.', '_'), alnum), { maxLength: 4 }))
    .map(([head, rest]) => head + rest.map(([sep, part]) => sep + part).join(''))
    .filter((n) => n.length <= 40);
  fc.assert(
    fc.property(name, (n) => {
      const err = invalid(() => checkOwnerName(n));
      return err === undefined || /reserved|pattern is not allowed/.test(err.message);
    }),
    { numRuns: 500 },
  );
});

// --- e-mail addresses ----------------------------------------------------------------------------

test('checkEmail: ordinary addresses pass', () => {
  for (const email of ['a@b.c', 'first.last+tag@example.co.uk', 'user@localhost', 'UPPER@EXAMPLE.COM', 'x_y-z@sub.domain.org']) {
    assert.is(invalid(() => checkEmail(email)), undefined, email);
  }
});

test('checkEmail: malformed addresses, control characters and CR/LF are refused', () => {
  const bad = [
    '', 'plain', 'a@', '@b.c', 'a@@b.c', 'a@b@c', 'a b@c.d', 'a@b c.d', ' a@b.c', 'a@b.c ',
    'a@b.com\r\n', 'a@b.com\n', '\na@b.com', 'a@b\u0000.com', 'a\t@b.com', 'a@b.com\u007f',
  ];
  for (const email of bad) {
    const err = invalid(() => checkEmail(email));
    assert.ok(err, JSON.stringify(email));
    assert.is(err!.message, `e-mail invalid [email: ${email}]`);
  }
});

test('checkEmail: at most 254 characters', () => {
  const ok = `${'a'.repeat(242)}@example.com`;
  assert.is(ok.length, 254);
  assert.is(invalid(() => checkEmail(ok)), undefined);
  assert.ok(invalid(() => checkEmail(`a${ok}`)));
});

test.run();
