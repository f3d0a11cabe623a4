// The issue references of text, as Gitea's modules/references finds them (cross references, #38).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findIssueReferences, findIssueReferencesMarkdown, keywordPatterns, maxMentions, maxReferencedIssues, upToMaxTargets } from '../../src/services/issues/references.js';

const root = 'https://code.example.com/';
const short = (refs: ReturnType<typeof findIssueReferences>) => refs.map((r) => `${r.owner ? `${r.owner}/${r.name}` : ''}#${r.index}:${r.action}`);

test('#N, !N and owner/repo#N where Gitea sees them: after space or bracket, before space, bracket or end punctuation', () => {
  assert.equal(short(findIssueReferences('see #1, (#2) and [#3]. #4', root)), ['#1:none', '#2:none', '#3:none', '#4:none']);
  assert.equal(short(findIssueReferences('!5 and Org/Repo.js#6!', root)), ['#5:none', 'org/repo.js#6:none']);
  // Inside a word, a URL fragment or followed by letters: no reference.
  assert.equal(short(findIssueReferences('a#1 x/#2 #3a http://h/p#4 #5.x', root)), []);
});

test('close and reopen keywords right before the reference, any case, with an optional colon', () => {
  assert.equal(short(findIssueReferences('Fixes #1, closes: #2 and Reopens #3; resolved  #4', root)), ['#1:closes', '#2:closes', '#3:reopens', '#4:none']);
  assert.equal(short(findIssueReferences('prefixes #1', root)), ['#1:none']);
});

test('configured keywords (CLOSE_KEYWORDS, REOPEN_KEYWORDS) replace the defaults; an empty list matches nothing', () => {
  const k = keywordPatterns({ close: ['corrige', 'behebt'], reopen: [] });
  assert.equal(short(findIssueReferences('Corrige #1, fixes #2, reopens #3 and behebt: #4 ; xcorrige #5', root, [], k)), ['#1:closes', '#2:none', '#3:none', '#4:closes', '#5:none']);
  assert.equal(short(findIssueReferencesMarkdown('Behebt #6 `fixes #7`', root, k)), ['#6:closes']);
  // A long keyword far before the reference is still found (the window is the longest keyword's).
  const long = keywordPatterns({ close: ['réparationcomplète'], reopen: ['rouvre'] });
  assert.equal(short(findIssueReferences('lorem ipsum RÉPARATIONCOMPLÈTE: #8 rouvre #9', root, [], long)), ['#8:closes', '#9:reopens']);
});

test("links to this server's issues and pull requests count; other hosts do not", () => {
  assert.equal(short(findIssueReferences(`see ${root}Alice/Repo/issues/7 and ${root}alice/repo/pulls/8.`, root)), ['alice/repo#7:none', 'alice/repo#8:none']);
  assert.equal(short(findIssueReferences('see https://elsewhere.example/alice/repo/issues/7', root)), []);
});

test('Markdown: code blocks and spans are left out, link targets on this server count', () => {
  const md = ['#1 and `#2`', '```', '#3', '```', '    ', `[text #4](${root}bob/lib/issues/5)`].join('\n');
  assert.equal(short(findIssueReferencesMarkdown(md, root)), ['#1:none', '#4:none', 'bob/lib#5:none']);
});

test('hostile text (unclosed code spans, brackets and fences) is read in linear time', () => {
  const started = Date.now();
  for (const unit of ['`a', '[x', '[x](', '```\n', '#1 ', 'fixes #1 ', 'a/b#1 ', '~', '`']) findIssueReferencesMarkdown(unit.repeat(200_000 / unit.length), root);
  // A link's target and title share white space with what is around them; a long run after `[x](`.
  for (const text of [`[x](${' '.repeat(200_000)}`, `[x](y${' '.repeat(200_000)}`, `[x](${'\n'.repeat(200_000)}`]) findIssueReferencesMarkdown(text, root);
  assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
});

test('at most 100 distinct issues a text, each with each keyword once; the scan stops at the 101st', () => {
  assert.is(maxReferencedIssues, 100);
  const many = Array.from({ length: 250 }, (_, i) => `#${i + 1}`).join(' ');
  assert.equal(short(findIssueReferences(many, root)), Array.from({ length: 100 }, (_, i) => `#${i + 1}:none`));
  assert.equal(short(findIssueReferencesMarkdown(`fixes #1 #1 and #1, fixes #1 and a/b#1 [x](${root}a/b/issues/1)`, root)), ['#1:closes', '#1:none', 'a/b#1:none']);
  // Across a title and a body: the first 100 targets of both together.
  const title = findIssueReferences('#1 #2', root);
  const body = findIssueReferencesMarkdown(Array.from({ length: 100 }, (_, i) => `#${i + 2}`).join(' '), root);
  assert.equal(short(upToMaxTargets([...title, ...body])), Array.from({ length: 100 }, (_, i) => `#${i + 1}:none`));
});

test('only the first 1,000 mentions are read: megabytes of one reference cost little time and memory', () => {
  assert.is(maxMentions, 1_000);
  assert.equal(short(findIssueReferences(`${'#1 '.repeat(maxMentions)}#2`, root)), ['#1:none']);
  assert.equal(short(findIssueReferences(`${'#1 '.repeat(maxMentions - 1)}#2`, root)), ['#1:none', '#2:none']);
  const started = Date.now();
  const before = process.memoryUsage().heapUsed;
  assert.equal(short(findIssueReferencesMarkdown('#1 '.repeat(3_000_000), root)), ['#1:none']);
  assert.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`);
  assert.ok(process.memoryUsage().heapUsed - before < 100e6, `${(process.memoryUsage().heapUsed - before) / 1e6} MB`);
});

test.run();
