// Who gets a notification thread, written with each issue or pull-request change: watchers, subscribers
// and participants (poster, assignees, commenters, @mentioned users), never the actor, never those who
// opted out or cannot read it; one thread per user and subject.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { editIssue, newComment, newIssue, people, sharedRepo, type People, type Repo } from '../helpers/issues.js';
import { send205, threadRows, threadsOf, watch } from '../helpers/notifications.js';
import { addFile, openPull, patch } from '../helpers/pulls.js';
import { actor, addCollaborator, userRepo, type Actor } from '../helpers/repos.js';

let app: TestApp;
let p: People;

test.before(async () => {
  app = await startApp();
  p = await people(app);
});
test.after(async () => {
  await app.close();
});

const idOf = async (a: Actor) => (await app.services.users.byName(a.username))!.id;
/** The subjects (titles) of `a`'s threads in `repo`, with their unread flag. */
const seen = async (a: Actor, repo: Repo) =>
  (await threadsOf(app, a)).filter((t) => t.repository.id === repo.id).map((t) => `${t.subject.title}${t.unread ? '' : ' (read)'}`);

test('a new issue: the repository\'s watchers (its creator included), never the actor', async () => {
  const repo = await sharedRepo(app, p);
  await watch(app, p.reader, repo.path);
  await newIssue(app, repo, p.writer, { title: 'by writer' });
  assert.equal(await seen(p.owner, repo), ['by writer'], 'the creator watches');
  assert.equal(await seen(p.reader, repo), ['by writer']);
  assert.equal(await seen(p.writer, repo), [], 'not the actor');
  assert.equal(await seen(p.outsider, repo), [], 'not someone unrelated');
  await newIssue(app, repo, p.owner, { title: 'by owner' });
  assert.equal(await seen(p.reader, repo), ['by owner', 'by writer'], 'one thread per new issue');
  assert.equal(await seen(p.owner, repo), ['by writer'], 'the watching actor gets none');
  assert.equal(await seen(p.writer, repo), [], 'not a watcher, not a participant of the owner\'s issue');
});

test('participants follow later comments: poster, commenters, assignees, @mentioned (not in code)', async () => {
  const repo = await sharedRepo(app, p);
  await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}/subscription', { params: { path: repo.path } });
  const issue = await newIssue(app, repo, p.writer, { title: 'talk', body: `cc @${p.reader.username} and \`@${p.outsider.username}\``, assignees: [p.owner.username] });
  assert.equal(await seen(p.reader, repo), ['talk'], 'mentioned in the body');
  assert.equal(await seen(p.owner, repo), ['talk'], 'assigned (no longer a watcher)');
  assert.equal(await seen(p.outsider, repo), [], 'a mention in code is none');
  await newComment(app, repo, issue.number, p.admin, 'first reply');
  for (const who of [p.reader, p.writer, p.owner]) assert.equal(await seen(who, repo), ['talk'], `${who.username} follows`);
  assert.equal(await seen(p.admin, repo), [], 'the commenter is the actor');
  await newComment(app, repo, issue.number, p.writer, 'poster replies');
  assert.equal(await seen(p.admin, repo), ['talk'], 'a commenter follows from then on');
  // One thread per user and issue: a later comment updates it.
  const [before] = (await threadsOf(app, p.reader)).filter((t) => t.repository.id === repo.id);
  await newComment(app, repo, issue.number, p.admin, 'second reply');
  const after = (await threadsOf(app, p.reader)).filter((t) => t.repository.id === repo.id);
  assert.equal(after.map((t) => t.id), [before!.id]);
  assert.ok(after[0]!.updated_at >= before!.updated_at);
  for (const who of [p.reader, p.writer, p.owner, p.admin]) {
    const rows = (await threadRows(app, await idOf(who))).filter((r) => r.repoId === repo.id);
    assert.is(rows.length, 1, `${who.username}: one stored thread`);
  }
});

test('an @mention in a comment makes a follower; not one in code, nor the actor\'s own', async () => {
  const repo = await sharedRepo(app, p);
  const [named, inline, fenced] = await Promise.all([actor(app), actor(app), actor(app)]);
  const issue = await newIssue(app, repo, p.owner, { title: 'mention in comment' });
  await newComment(app, repo, issue.number, p.writer, `@${named.username}, see \`@${inline.username}\` and @${p.writer.username}\n\n\`\`\`\n@${fenced.username}\n\`\`\``);
  assert.equal(await seen(named, repo), ['mention in comment']);
  for (const who of [inline, fenced, p.writer]) assert.equal(await seen(who, repo), [], who.username);
  await send205(app, 'PUT', '/notifications', named.auth);
  await newComment(app, repo, issue.number, p.owner, 'later');
  assert.equal(await seen(named, repo), ['mention in comment'], 'unread again: a participant from then on');
  for (const who of [inline, fenced]) assert.equal(await seen(who, repo), [], who.username);
});

test('a read thread turns unread on a new comment and points at it; an unread one keeps its first unread comment', async () => {
  const repo = await sharedRepo(app, p);
  const issue = await newIssue(app, repo, p.writer, { title: 'ping' });
  const api = `${app.config.rootUrl}api/v1/repos/${repo.full_name}/issues/comments`;
  const mine = async () => (await threadsOf(app, p.owner)).filter((x) => x.repository.id === repo.id)[0]!;
  let t = await mine();
  assert.equal([t.unread, t.subject.latest_comment_url], [true, ''], 'a new issue: no comment yet');
  assert.is((await send205(app, 'PATCH', `/notifications/threads/${t.id}`, p.owner.auth)).status, 205);
  const first = await newComment(app, repo, issue.number, p.writer, 'one');
  t = await mine();
  assert.equal([t.unread, t.subject.latest_comment_url, t.subject.latest_comment_html_url], [true, `${api}/${first.id}`, `${app.config.rootUrl}${repo.full_name}/issues/${issue.number}#issuecomment-${first.id}`]);
  await newComment(app, repo, issue.number, p.writer, 'two');
  t = await mine();
  assert.equal([t.unread, t.subject.latest_comment_url], [true, `${api}/${first.id}`], 'still the first unread comment');
  await send205(app, 'PATCH', `/notifications/threads/${t.id}`, p.owner.auth);
  const third = await newComment(app, repo, issue.number, p.writer, 'three');
  t = await mine();
  assert.equal([t.unread, t.subject.latest_comment_url], [true, `${api}/${third.id}`]);
});

test('a pinned thread stays pinned when news comes', async () => {
  const repo = await sharedRepo(app, p);
  const issue = await newIssue(app, repo, p.writer, { title: 'pin me' });
  const [t] = (await threadsOf(app, p.owner)).filter((x) => x.repository.id === repo.id);
  await send205(app, 'PATCH', `/notifications/threads/${t!.id}?to-status=pinned`, p.owner.auth);
  await newComment(app, repo, issue.number, p.writer, 'more');
  const [after] = (await threadsOf(app, p.owner)).filter((x) => x.repository.id === repo.id);
  assert.equal([after!.pinned, after!.unread], [true, false]);
});

test('an explicit unsubscribe beats being a watcher and a participant', async () => {
  const repo = await sharedRepo(app, p);
  const issue = await newIssue(app, repo, p.owner, { title: 'quiet' });
  const off = await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}/issues/{index}/subscriptions/{user}', {
    params: { path: { ...repo.path, index: issue.number, user: p.owner.username } },
  });
  assert.is(off.response.status, 201);
  await newComment(app, repo, issue.number, p.writer, 'anyone?');
  assert.equal(await seen(p.owner, repo), []);
});

test('no thread for someone who cannot read the repository, even @mentioned in the body or a comment', async () => {
  const repo = await sharedRepo(app, p, { private: true });
  const issue = await newIssue(app, repo, p.writer, { title: 'secret', body: `@${p.outsider.username} look` });
  await newComment(app, repo, issue.number, p.owner, `@${p.outsider.username} and here`);
  await editIssue(app, repo, issue.number, p.writer, { body: `@${p.outsider.username} and @${p.reader.username}` });
  assert.equal(await seen(p.reader, repo), ['secret'], 'newly mentioned, and a reader');
  assert.equal((await threadRows(app, await idOf(p.outsider))).filter((r) => r.repoId === repo.id), [], 'none stored');
});

test('editing the body to add an @mention tells only the newly mentioned user', async () => {
  const repo = await sharedRepo(app, p);
  const extra = await actor(app);
  const issue = await newIssue(app, repo, p.writer, { title: 'edited', body: `for @${p.reader.username}` });
  await newComment(app, repo, issue.number, p.admin, 'a participant');
  await newComment(app, repo, issue.number, p.owner, 'noted');
  for (const who of [p.owner, p.reader, p.admin, p.writer]) await send205(app, 'PUT', '/notifications', who.auth);
  await editIssue(app, repo, issue.number, p.writer, { body: `for @${p.reader.username} and @${extra.username}` });
  assert.equal(await seen(extra, repo), ['edited']);
  for (const who of [p.owner, p.reader, p.admin, p.writer]) assert.equal(await seen(who, repo), ['edited (read)'], `${who.username} is not told of the edit`);
  await send205(app, 'PUT', '/notifications', extra.auth);
  await editIssue(app, repo, issue.number, p.writer, { title: 'edited again', body: `for @${extra.username} and @${p.reader.username}` });
  for (const who of [p.owner, p.reader, p.admin, p.writer, extra]) assert.equal(await seen(who, repo), ['edited again (read)'], `${who.username}: no new mention`);
});

test('being assigned notifies the assignee; a pull request is a Pull subject', async () => {
  const repo = await sharedRepo(app, p);
  const issue = await newIssue(app, repo, p.owner, { title: 'task' });
  await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}/subscription', { params: { path: repo.path } });
  await editIssue(app, repo, issue.number, p.owner, { assignees: [p.writer.username] });
  assert.equal(await seen(p.writer, repo), ['task']);
  await editIssue(app, repo, issue.number, p.owner, { assignees: [p.writer.username, p.owner.username] });
  assert.equal(await seen(p.owner, repo), [], 'assigning oneself: the actor');
  await send205(app, 'PUT', '/notifications', p.writer.auth);
  await newComment(app, repo, issue.number, p.owner, 'over to you');
  assert.equal(await seen(p.writer, repo), ['task'], 'an assignee follows the comments');
  const git = { ...(await userRepo(app, p.owner, { auto_init: true })) };
  await addCollaborator(app, git, p.writer, 'write');
  await patch(app, git, p.writer, addFile('x.txt', ['x']), { newBranch: 'feature' });
  const pr = await openPull(app, git, p.writer, 'feature', { title: 'a change' });
  const [t] = (await threadsOf(app, p.owner)).filter((x) => x.subject.title === 'a change');
  assert.equal([t!.subject.type, t!.subject.state, t!.subject.url], ['Pull', 'open', `${app.config.rootUrl}api/v1/repos/${git.full_name}/pulls/${pr.number}`]);
  assert.equal(await threadsOf(app, p.writer, { 'subject-type': 'pull' }), [], 'the author opened it');
  const c = await newComment(app, { ...git, path: { owner: p.owner.username, repo: git.name } }, pr.number, p.owner, 'looks good');
  const [mine] = await threadsOf(app, p.writer, { 'subject-type': 'pull' });
  assert.equal([mine!.subject.type, mine!.unread, mine!.subject.latest_comment_html_url], ['Pull', true, `${app.config.rootUrl}${git.full_name}/pulls/${pr.number}#issuecomment-${c.id}`]);
});

test('a work-in-progress pull request tells its participants, not the repository\'s watchers', async () => {
  const git = { ...(await userRepo(app, p.owner, { auto_init: true })) };
  await addCollaborator(app, git, p.writer, 'write');
  await watch(app, p.reader, { owner: p.owner.username, repo: git.name });
  await patch(app, git, p.writer, addFile('w.txt', ['w']), { newBranch: 'wip' });
  await openPull(app, git, p.writer, 'wip', { title: 'WIP: not yet' });
  await patch(app, git, p.writer, addFile('r.txt', ['r']), { newBranch: 'ready' });
  await openPull(app, git, p.writer, 'ready', { title: 'ready' });
  const titles = async (a: Actor) => (await threadsOf(app, a, { 'subject-type': 'pull' })).filter((t) => t.repository.id === git.id).map((t) => t.subject.title);
  assert.equal(await titles(p.reader), ['ready'], 'a watcher hears of the ready one only');
  assert.equal(await titles(p.owner), ['ready'], 'the owner watches too');
});

test.run();
