// Issue #4's property: any unicode title either makes a page (201) that reads back by its sub_url with
// the same content, or is refused (400; 422 for text that is not text: NUL, lone surrogates); no title
// ever writes a file outside the wiki's tree.
import { join } from 'node:path';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { goTrimSpace, userTitleToWebPath, webPathToGitPath } from '../../src/services/repos/wikiNames.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { gitRun } from '../helpers/gitFixtures.js';
import { actor, assertFsck, pathOf, userRepo, type Actor, type Repository } from '../helpers/repos.js';
import { assertSpec } from '../helpers/spec-check.js';

let app: TestApp;
let owner: Actor;
let repo: Repository;

test.before(async () => {
  app = await startApp();
  owner = await actor(app);
  repo = await userRepo(app, owner, { auto_init: true });
});
test.after(async () => {
  await app.close();
});

const reserved = new Set(['_pages', '_new', '_edit', 'raw']);
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Characters that matter to the naming rules, mixed with any unicode (lone surrogates included).
const tricky = ['.', '..', '../', '/', '\\', '-', ' ', '+', '%', '%2F', '%2e', '.md', '.-', '_pages', 'raw', '\t', '\n', '\u3000',
  '\ufeff', '\ud800', '\udc00', '\u0000', 'é', '😀', ':', '*', '?', '[', '#', '&', '"', '~', 'C:\\', '.git'];
const titleArb = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1 }),
  fc.string({ unit: fc.constantFrom(...tricky), minLength: 1, maxLength: 6 }),
  fc.string({ unit: fc.oneof(fc.constantFrom(...tricky), fc.string({ unit: 'binary', maxLength: 3 })), minLength: 1, maxLength: 6 }),
);

test('any unicode title: 201 and the page reads back by sub_url, or 400 (422 for NUL and lone surrogates); only top-level *.md files', async () => {
  const { owner: o, repo: name } = pathOf(repo);
  const dir = join(app.config.dataDir, 'repositories', o.toLowerCase(), `${name.toLowerCase()}.wiki.git`);
  const made = new Set<string>();
  const client = app.client(owner.auth);
  await fc.assert(
    fc.asyncProperty(titleArb, fc.uint8Array({ maxLength: 48 }), async (title, bytes) => {
      const content = Buffer.from(bytes).toString('base64');
      const res = await client.POST('/repos/{owner}/{repo}/wiki/new', { params: { path: { owner: o, repo: name } }, body: { title, content_base64: content } });
      const status = res.response.status;
      assertSpec('repoCreateWikiPage', res);
      if (title.includes('\0') || loneSurrogate.test(title)) {
        // The router refuses NUL and lone surrogates (text with no UTF-8 form) in any string field (#32).
        assert.is(status, 422, JSON.stringify(title));
        return;
      }
      const web = userTitleToWebPath(title);
      // A page's file name must fit a file system's 255 bytes (#32).
      const tooLong = Buffer.byteLength(webPathToGitPath(web) ?? '') > 255;
      const refused = goTrimSpace(title) === '' || reserved.has(Buffer.from(goTrimSpace(title)).toString()) || made.has(web) || tooLong;
      if (refused) {
        assert.is(status, 400, `${JSON.stringify(title)}: ${JSON.stringify(res.data)}`);
        return;
      }
      assert.is(status, 201, `${JSON.stringify(title)}: ${JSON.stringify(res.error)}`);
      const page = res.data!;
      made.add(page.sub_url);
      assert.is(page.sub_url, web);
      assert.is(page.content_base64, content);
      const back = await client.GET('/repos/{owner}/{repo}/wiki/page/{pageName}', { params: { path: { owner: o, repo: name, pageName: page.sub_url } } });
      assert.is(back.response.status, 200, `read back ${JSON.stringify(title)} by ${page.sub_url}`);
      assertSpec('repoGetWikiPage', back);
      assert.is(back.data!.content_base64, content);
      assert.is(back.data!.sub_url, page.sub_url);
      assert.is(back.data!.last_commit.sha, page.last_commit.sha);

      const files = gitRun(dir, ['ls-tree', '-r', '-z', '--name-only', repo.default_branch]).split('\0').filter(Boolean);
      assert.is(files.length, made.size);
      for (const f of files) assert.match(f, /^[^/\0]+\.md$/, `${JSON.stringify(f)} after ${JSON.stringify(title)}`);
    }),
    { numRuns: 30 },
  );
  assertFsck(dir);
});

test.run();
