// A user who hides their e-mail address signs what anvil writes for them with the no-reply address:
// the initial commit, diff patches, annotated tags and wiki pages. Nothing in git carries the address.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { users } from '../../src/db/schema/index.js';
import { dirOf, gitRun } from '../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { addFile, patch } from '../helpers/pulls.js';
import { actor, pathOf, userRepo, type Actor } from '../helpers/repos.js';

let app: TestApp;
let shy: Actor;
let open: Actor;

test.before(async () => {
  app = await startApp();
  [shy, open] = await Promise.all([actor(app), actor(app)]);
  await app.services.deps.db.update(users).set({ keepEmailPrivate: true }).where(eq(users.id, shy.id));
});
test.after(async () => {
  await app?.close();
});

const emailsIn = (dir: string, rev: string) => gitRun(dir, ['log', '--format=%ae %ce', rev]).trim().split(/\s+/);

test('commits, tags and wiki pages of a user with a hidden address carry the no-reply address', async () => {
  const noReply = `${shy.username.toLowerCase()}@${app.config.noReplyDomain}`;
  const repo = await userRepo(app, shy, { auto_init: true });
  const dir = dirOf(app, repo);
  await patch(app, repo, shy, addFile('a.txt', ['a']));
  const tag = await app.client(shy.auth).POST('/repos/{owner}/{repo}/tags', { params: { path: pathOf(repo) }, body: { tag_name: 'v1', message: 'annotated' } });
  assert.is(tag.response.status, 201);
  const wiki = await app.client(shy.auth).POST('/repos/{owner}/{repo}/wiki/new', { params: { path: pathOf(repo) }, body: { title: 'Home', content_base64: Buffer.from('x').toString('base64') } });
  assert.is(wiki.response.status, 201);
  assert.equal([...new Set(emailsIn(dir, 'main'))], [noReply], 'initial commit and patch');
  assert.match(gitRun(dir, ['cat-file', '-p', 'refs/tags/v1']), `<${noReply}>`);
  const wikiDir = dir.replace(/\.git$/, '.wiki.git');
  assert.equal([...new Set(emailsIn(wikiDir, 'HEAD'))], [noReply], 'wiki page');
  assert.not.match(gitRun(dir, ['log', '--format=%ae%n%ce', '--all']), shy.email);
});

test('a user who shows their address signs with it', async () => {
  const repo = await userRepo(app, open, { auto_init: true });
  assert.equal([...new Set(emailsIn(dirOf(app, repo), 'main'))], [open.email]);
});

test.run();
