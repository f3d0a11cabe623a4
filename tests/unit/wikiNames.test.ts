import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  gitPathToWebPath, goQuote, goTrimSpace, legacyGitPath, queryEscape, queryUnescape, reservedSegment, userTitleToWebPath,
  webPathFromRequest, webPathToGitPath, webPathToUserTitle,
} from '../../src/services/repos/wikiNames.js';

/** What a JSON round trip leaves of a string: lone surrogates become U+FFFD. */
const wellFormed = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

/** Go's url.QueryEscape, written independently: encodeURIComponent, plus `!'()*`, with `+` for spaces. */
const goQueryEscape = (s: string) =>
  encodeURIComponent(wellFormed(s))
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('%20', '+');

// Titles with the characters that matter to the naming rules, and any unicode besides.
const tricky = ['.', '..', '/', '\\', '-', ' ', '+', '%', '%2F', '%20', '%00', '.md', '.-', '_pages', 'raw', '\t', '\n', '\u3000',
  '\u0085', '\ufeff', '\ud800', 'é', '😀', ':', '*', '?', '[', '#', '&', '"', '~', 'a', 'Z', '0'];
const titleArb = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom(...tricky), maxLength: 12 }),
  fc.string({ unit: fc.oneof(fc.constantFrom(...tricky), fc.string({ unit: 'binary', maxLength: 2 })), maxLength: 8 }),
);

test('reference examples: sub_url, git file and title', () => {
  const cases: Array<[string, string, string, string]> = [
    ['New page', 'New-page', 'New-page.md', 'New page'],
    ['&&&&', '%26%26%26%26', '%26%26%26%26.md', '&&&&'],
    ['2000-01-02 meeting', '2000-01-02+meeting.-', '2000-01-02 meeting.-.md', '2000-01-02 meeting'],
    ['  Home  ', 'Home', 'Home.md', 'Home'],
    ['notes.md', 'notes.md.-', 'notes.md.-.md', 'notes.md'],
    ['a-b', 'a-b.-', 'a-b.-.md', 'a-b'],
    ['a+b', 'a%2Bb', 'a%2Bb.md', 'a+b'],
    ['100%', '100%25', '100%25.md', '100%'],
    ['%41', '%2541', '%2541.md', '%41'],
    ['ü ö', '%C3%BC-%C3%B6', '%C3%BC-%C3%B6.md', 'ü ö'],
    ['x-y z', 'x-y+z.-', 'x-y z.-.md', 'x-y z'],
    ['a/b', 'a%2Fb', 'a%2Fb.md', 'a/b'],
    ['../etc/passwd', '..%2Fetc%2Fpasswd', '..%2Fetc%2Fpasswd.md', '../etc/passwd'],
    ['/abs', '%2Fabs', '%2Fabs.md', '/abs'],
    ['..\\x', '..%5Cx', '..%5Cx.md', '..\\x'],
    ['...', '...', '....md', '...'],
  ];
  for (const [title, web, file, shown] of cases) {
    assert.is(userTitleToWebPath(title), web, title);
    assert.is(webPathToGitPath(web), file, title);
    assert.is(webPathToUserTitle(web), shown, title);
    assert.is(gitPathToWebPath(file), web, title);
  }
});

test('empty, `.` and `..` become `unnamed`', () => {
  for (const t of ['', '.', '..', ' . ']) assert.is(userTitleToWebPath(t), 'unnamed', JSON.stringify(t));
  assert.is(webPathToGitPath('unnamed'), 'unnamed.md');
});

test('queryEscape is Go\'s url.QueryEscape; queryUnescape undoes it', () => {
  assert.is(queryEscape('a b+c&d/e~f_g.h-i!*\'()'), 'a+b%2Bc%26d%2Fe~f_g.h-i%21%2A%27%28%29');
  assert.is(queryUnescape('a+b%2Bc'), 'a b+c');
  assert.is(queryUnescape('%zz'), undefined);
  assert.is(queryUnescape('100%'), undefined);
  fc.assert(fc.property(titleArb, (s) => {
    assert.is(queryEscape(s), goQueryEscape(s));
    assert.is(queryUnescape(queryEscape(s)), wellFormed(s));
  }), { numRuns: 500 });
});

test('bytes survive unescape-then-escape as in Go (no UTF-8 repair in between)', () => {
  assert.is(webPathToGitPath('%FF'), '%FF.md');
  assert.is(webPathToGitPath('%C3'), '%C3.md');
  assert.is(gitPathToWebPath('%FF.md'), '%FF');
});

test('any title: one top-level *.md file, found again from its sub_url, showing the title', () => {
  fc.assert(fc.property(titleArb, (title) => {
    const web = userTitleToWebPath(title);
    assert.match(web, /^[A-Za-z0-9\-_.~%+]+$/, `sub_url of ${JSON.stringify(title)}`);
    const file = webPathToGitPath(web);
    assert.ok(file, `no file for ${JSON.stringify(title)}`);
    assert.match(file!, /^[A-Za-z0-9\-_.~% ]+\.md$/);
    assert.ok(file !== '.md' && !file!.includes('/') && !file!.includes('\0'));
    // The page's own sub_url, sent back (decoded or as is), names the same file.
    assert.is(webPathToGitPath(webPathFromRequest(web)), file);
    assert.is(gitPathToWebPath(file!), web);
    if (web !== 'unnamed') assert.is(webPathToUserTitle(web), wellFormed(goTrimSpace(title)));
  }), { numRuns: 1000 });
});

test('page names from requests: the same page for escaped and plain forms; never above the root', () => {
  assert.is(webPathToGitPath(webPathFromRequest('&&&&')), '%26%26%26%26.md');
  assert.is(webPathToGitPath(webPathFromRequest('%26%26%26%26')), '%26%26%26%26.md');
  assert.is(webPathToGitPath(webPathFromRequest('2000-01-02+meeting.-')), '2000-01-02 meeting.-.md');
  assert.is(webPathToGitPath(webPathFromRequest('New-page')), 'New-page.md');
  // A slash stays inside the one name; a name ending in .md is the file name, cleaned.
  assert.is(webPathToGitPath(webPathFromRequest('a/b')), 'a%2Fb.md');
  assert.is(webPathToGitPath(webPathFromRequest('../../etc/passwd')), 'etc%2Fpasswd.md');
  assert.is(webPathToGitPath(webPathFromRequest('../../etc/passwd.md')), 'etc/passwd.md');
  assert.is(webPathToGitPath(webPathFromRequest('/abs.md')), 'abs.md');
  assert.is(webPathToGitPath(webPathFromRequest('..%2F..%2Fx.md')), 'x.md');
  assert.is(webPathToGitPath(webPathFromRequest('..')), '..md');
  assert.is(webPathToGitPath('%zz.md'), undefined, 'a bad escape in a .md name is no file');
  assert.is(webPathToGitPath('../x'), undefined, 'a dot segment is no file');
  fc.assert(fc.property(titleArb, (name) => {
    const file = webPathToGitPath(webPathFromRequest(name));
    if (file === undefined) return;
    assert.not.ok(file.startsWith('/'));
    assert.ok(file.split('/').every((s) => s !== '' && s !== '.' && s !== '..'), file);
  }), { numRuns: 1000 });
});

test('legacy (unescaped) git path fallback', () => {
  assert.is(legacyGitPath('%26%26%26%26.md'), '&&&&.md');
  assert.is(legacyGitPath('New-page.md'), undefined, 'same name: no second look-up');
  assert.is(legacyGitPath('%zz.md'), undefined);
  assert.is(legacyGitPath('%2E%2E.md'), '...md');
});

test('reserved names, by segment, after unescaping', () => {
  for (const t of ['_pages', '_new', '_edit', 'raw', ' raw ']) assert.is(reservedSegment(userTitleToWebPath(t)), t.trim(), t);
  for (const t of ['_Sidebar', '_Footer', 'Raw', 'raw.md', 'raw-', 'raws', '_page']) assert.is(reservedSegment(userTitleToWebPath(t)), undefined, t);
});

test('goTrimSpace: Go\'s unicode spaces, not JavaScript\'s', () => {
  assert.is(goTrimSpace(' \t\n\v\f\r\u0085\u00a0\u3000x\u2028 '), 'x');
  assert.is(goTrimSpace('\ufeffx'), '\ufeffx', 'U+FEFF is no space to Go');
});

test('goQuote is Go\'s %q', () => {
  assert.is(goQuote('New page'), '"New page"');
  assert.is(goQuote('say "hi" \\ now'), '"say \\"hi\\" \\\\ now"');
  assert.is(goQuote('\x07\b\f\n\r\t\v'), '"\\a\\b\\f\\n\\r\\t\\v"');
  assert.is(goQuote('\x00\x1b\x7f'), '"\\x00\\x1b\\x7f"');
  assert.is(goQuote('\u00a0\u200b\u00ad'), '"\\u00a0\\u200b\\u00ad"');
  assert.is(goQuote('é日本😀'), '"é日本😀"');
  assert.is(goQuote('\u{e0001}'), '"\\U000e0001"');
  assert.is(goQuote('\ud800'), '"\ufffd"');
});

test.run();
