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
  app.client(authorization).GET('/repos/{owner}/{repo}/issue_config/validate', { params: { path: pathOf(target) } });

test('200: valid configs, and no config at all', async () => {
  for (const repo of [
    await issueConfigRepo(app, r, { '.gitea/ISSUE_TEMPLATE/config.yaml': 'blank_issues_enabled: false\ncontact_links:\n  - {name: A, url: "https://a.example.com/x", about: B}\n' }),
    await issueConfigRepo(app, r, { '.github/ISSUE_TEMPLATE/config.yml': '' }),
    await repoFor(app, r),
    await repoFor(app, r, { auto_init: false }),
  ]) {
    const res = await get(repo);
    assert.is(res.response.status, 200);
    assertSpec('repoValidateIssueConfig', res);
    assert.equal(res.data, { valid: true, message: '' });
  }
});

test('200: what is wrong, in Gitea\'s words', async () => {
  const cases: Array<[string, string]> = [
    ['contact_links:\n  - {url: "https://a.example.com", about: B}\n', 'contact_link at position 1 is missing name key'],
    ['contact_links:\n  - {name: A, url: "https://a.example.com", about: B}\n  - {name: A, about: B}\n', 'contact_link at position 2 is missing url key'],
    ['contact_links:\n  - {name: A, url: "https://a.example.com"}\n', 'contact_link at position 1 is missing about key'],
    ['contact_links:\n  - {name: A, url: "not a url", about: B}\n', 'not a url is not a valid URL'],
    ['blank_issues_enabled: maybe\n', 'yaml: blank_issues_enabled must be a boolean'],
  ];
  for (const [text, message] of cases) {
    const res = await get(await issueConfigRepo(app, r, { '.gitea/ISSUE_TEMPLATE/config.yaml': text }));
    assert.is(res.response.status, 200);
    assert.equal(res.data, { valid: false, message }, text);
  }
  const broken = (await get(await issueConfigRepo(app, r, { '.gitea/ISSUE_TEMPLATE/config.yaml': 'a: [1,\n' }))).data as { valid: boolean; message: string };
  assert.is(broken.valid, false);
  assert.match(broken.message, /^yaml: /);
});

test('200: readers of a private repository; 404 for outsiders and anonymous callers; 403 without the scope', async () => {
  const priv = await issueConfigRepo(app, r, { '.gitea/ISSUE_TEMPLATE/config.yaml': 'blank_issues_enabled: true\n' }, true);
  for (const who of [r.owner, r.writer, r.reader, r.admin]) assert.is((await get(priv, who.auth)).response.status, 200, who.username);
  for (const auth of [r.outsider.auth, undefined]) {
    const res = await get(priv, auth);
    assert.is(res.response.status, 404);
    assertSpec('repoValidateIssueConfig', res);
  }
  const scoped = await get(priv, await wrongScope(app, r.owner, false));
  assert.is(scoped.response.status, 403);
});

test.run();
