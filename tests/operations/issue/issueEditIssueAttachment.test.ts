import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { attachmentWorld, newIssue, uploadToIssue, type AttachmentWorld } from '../../helpers/attachments.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';
import type { Actor } from '../../helpers/repos.js';

let app: TestApp;
let w: AttachmentWorld;

test.before(async () => {
  app = await startApp();
  w = await attachmentWorld(app);
});
test.after(async () => {
  await app.close();
});

const edit = (world: AttachmentWorld, index: number, attachment_id: number, name: string | undefined, auth?: string) =>
  app.client(auth).PATCH('/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}', { params: { path: { ...world.path, index, attachment_id } }, body: { name } });

async function fixture(poster: Actor) {
  const issue = await newIssue(app, w, poster);
  const att = (await uploadToIssue(app, w, issue.number, { filename: 'a.txt' }, poster)).data!;
  return { issue, att };
}

test('201: the poster (a reader), a writer, the repository and site admins rename; an empty name keeps it', async () => {
  for (const as of [w.reader, w.writer, w.repoAdmin, w.admin]) {
    const { issue, att } = await fixture(w.reader);
    const r = await edit(w, issue.number, att.id, `renamed-${as.username}.txt`, as.auth);
    assert.is(r.response.status, 201, as.username);
    assertSpec('issueEditIssueAttachment', r);
    assert.is(r.data!.name, `renamed-${as.username}.txt`);
    const same = await edit(w, issue.number, att.id, undefined, as.auth);
    assert.is(same.data!.name, `renamed-${as.username}.txt`);
  }
});

test('403: a reader who did not post the issue; an outsider', async () => {
  const { issue, att } = await fixture(w.writer);
  for (const as of [w.reader, w.outsider]) {
    const r = await edit(w, issue.number, att.id, 'x.txt', as.auth);
    assert.is(r.response.status, 403, as.username);
    assertSpec('issueEditIssueAttachment', r);
  }
});

test('422: a type not allowed; 404: another issue\'s; 423: archived; 401 anonymous', async () => {
  const { issue, att } = await fixture(w.owner);
  const bad = await edit(w, issue.number, att.id, 'evil.exe', w.owner.auth);
  assert.is(bad.response.status, 422);
  assertSpec('issueEditIssueAttachment', bad);
  const other = await newIssue(app, w, w.owner);
  assertEmpty404(await edit(w, other.number, att.id, 'x.txt', w.owner.auth));
  const anon = await edit(w, issue.number, att.id, 'x.txt');
  assert.is(anon.response.status, 401);
  const w2 = await attachmentWorld(app, { reuse: w });
  const i2 = await newIssue(app, w2, w2.owner);
  const a2 = (await uploadToIssue(app, w2, i2.number, {}, w2.owner)).data!;
  await editRepo(app, { ...w2.repo, path: w2.path }, { archived: true });
  const archived = await edit(w2, i2.number, a2.id, 'x.txt', w2.owner.auth);
  assert.is(archived.response.status, 423);
  assertSpec('issueEditIssueAttachment', archived);
});

test.run();
