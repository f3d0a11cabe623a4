import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { issueConfigRepo } from '../../helpers/contents.js';
import { repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { pathOf, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
});
test.after(async () => {
  await app.close();
});

const get = (target: Repository, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/issue_config', { params: { path: pathOf(target) } });

const valid = 'blank_issues_enabled: false\ncontact_links:\n  - name: Forum\n    url: https://forum.example.com\n    about: Ask here\n';

test('200: the config of the default branch, from .gitea before .github, .yaml before .yml', async () => {
  const repo = await issueConfigRepo(app, r, {
    '.github/ISSUE_TEMPLATE/config.yaml': 'blank_issues_enabled: true\n',
    '.gitea/ISSUE_TEMPLATE/config.yml': 'blank_issues_enabled: true\n',
    '.gitea/ISSUE_TEMPLATE/config.yaml': valid,
  });
  const res = await get(repo);
  assert.is(res.response.status, 200);
  assertSpec('repoGetIssueConfig', res);
  assert.equal(res.data, { blank_issues_enabled: false, contact_links: [{ name: 'Forum', url: 'https://forum.example.com', about: 'Ask here' }] });
  const github = await issueConfigRepo(app, r, { '.github/issue_template/config.yml': 'contact_links:\n  - {name: Docs, url: /docs, about: Read}\n' });
  assert.equal((await get(github)).data, { blank_issues_enabled: true, contact_links: [{ name: 'Docs', url: '/docs', about: 'Read' }] });
});

test('200: the default without a config, with an invalid one, in an empty repository', async () => {
  const fallback = { blank_issues_enabled: true, contact_links: [] };
  for (const repo of [
    await repoFor(app, r),
    await issueConfigRepo(app, r, { '.gitea/ISSUE_TEMPLATE/config.yaml': 'blank_issues_enabled: false\ncontact_links:\n  - name: x\n' }),
    await repoFor(app, r, { auto_init: false }),
  ]) {
    const res = await get(repo);
    assert.is(res.response.status, 200);
    assert.equal(res.data, fallback);
  }
});

test('200: readers of a private repository; 404 for outsiders and anonymous callers; 403 without the scope', async () => {
  const priv = await issueConfigRepo(app, r, { '.gitea/ISSUE_TEMPLATE/config.yaml': valid }, true);
  for (const who of [r.owner, r.writer, r.reader, r.admin]) assert.is((await get(priv, who.auth)).response.status, 200, who.username);
  for (const auth of [r.outsider.auth, undefined]) {
    const res = await get(priv, auth);
    assert.is(res.response.status, 404);
    assertSpec('repoGetIssueConfig', res);
  }
  const scoped = await get(priv, await wrongScope(app, r.owner, false));
  assert.is(scoped.response.status, 403);
  assertSpec('repoGetIssueConfig', scoped);
});

test.run();
