import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { issueConfigRepo } from '../../helpers/contents.js';
import { repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { pathOf, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

type Template = components['schemas']['IssueTemplate'];

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
  app.client(authorization).GET('/repos/{owner}/{repo}/issue_templates', { params: { path: pathOf(target) } });

const bugMd = '---\nname: Bug report\nabout: Something is broken\ntitle: "[bug] "\nlabels: bug, triage\nassignees:\n  - alice\nref: main\n---\n\n**Describe the bug**\n';
const form = [
  'name: Feature',
  'description: Ask for something',
  'labels: [enhancement]',
  'body:',
  '  - type: markdown',
  '    attributes:',
  '      value: Thanks!',
  '  - type: input',
  '    id: summary',
  '    attributes:',
  '      label: Summary',
  '    validations:',
  '      required: true',
  '  - type: dropdown',
  '    id: area',
  '    attributes:',
  '      label: Area',
  '      options: [api, web]',
  '    visible: [form]',
  '',
].join('\n');

test('200: Markdown templates with front matter and YAML issue forms, in Gitea\'s folder order', async () => {
  const repo = await issueConfigRepo(app, r, {
    '.github/ISSUE_TEMPLATE/z-later.md': '---\nname: From GitHub\nabout: Later folder\n---\nbody\n',
    '.gitea/ISSUE_TEMPLATE/bug.md': bugMd,
    '.gitea/ISSUE_TEMPLATE/feature.yaml': form,
    '.gitea/ISSUE_TEMPLATE/config.yaml': 'blank_issues_enabled: false\n',
    '.gitea/ISSUE_TEMPLATE/notes.txt': 'not a template\n',
  });
  const res = await get(repo);
  assert.is(res.response.status, 200);
  assertSpec('repoGetIssueTemplates', res);
  const list = res.data as Template[];
  assert.equal(list.map((t) => t.file_name), ['bug.md', 'feature.yaml', 'z-later.md']);
  assert.equal(list[0], {
    name: 'Bug report', title: '[bug] ', about: 'Something is broken', labels: ['bug', 'triage'], assignees: ['alice'], ref: 'main',
    content: '\n**Describe the bug**\n', body: [], file_name: 'bug.md',
  });
  const f = list[1]!;
  assert.equal([f.name, f.about, f.labels, f.content], ['Feature', 'Ask for something', ['enhancement'], '']);
  assert.equal(f.body, [
    { type: 'markdown', id: '', attributes: { value: 'Thanks!' }, validations: {}, visible: ['form'] },
    { type: 'input', id: 'summary', attributes: { label: 'Summary' }, validations: { required: true }, visible: ['form', 'content'] },
    { type: 'dropdown', id: 'area', attributes: { label: 'Area', options: ['api', 'web'] }, validations: {}, visible: ['form'] },
  ]);
});

test('200: invalid templates are left out; none without templates or in an empty repository', async () => {
  const repo = await issueConfigRepo(app, r, {
    'ISSUE_TEMPLATE/no-front-matter.md': '# just text\n',
    'ISSUE_TEMPLATE/no-about.md': '---\nname: X\n---\n',
    'ISSUE_TEMPLATE/bad-yaml.yml': 'name: [\n',
    'ISSUE_TEMPLATE/no-body.yml': 'name: A\ndescription: B\n',
    'ISSUE_TEMPLATE/dup-ids.yml': 'name: A\ndescription: B\nbody:\n  - {type: input, id: x, attributes: {label: L}}\n  - {type: textarea, id: x, attributes: {label: M}}\n',
    'ISSUE_TEMPLATE/bad-type.yml': 'name: A\ndescription: B\nbody:\n  - {type: slider, id: x, attributes: {label: L}}\n',
    'ISSUE_TEMPLATE/ok.md': '---\nname: Fine\nabout: Kept\n---\n',
  });
  assert.equal(((await get(repo)).data as Template[]).map((t) => t.file_name), ['ok.md']);
  for (const target of [await repoFor(app, r), await repoFor(app, r, { auto_init: false })]) {
    const res = await get(target);
    assert.is(res.response.status, 200);
    assert.equal(res.data, []);
  }
});

test('200: readers of a private repository; 404 for outsiders and anonymous callers; 403 without the scope', async () => {
  const priv = await issueConfigRepo(app, r, { '.gitea/issue_template/a.md': '---\nname: A\nabout: B\n---\n' }, true);
  for (const who of [r.owner, r.writer, r.reader, r.admin]) {
    const res = await get(priv, who.auth);
    assert.is(res.response.status, 200, who.username);
    assert.equal((res.data as Template[]).map((t) => t.name), ['A']);
  }
  for (const auth of [r.outsider.auth, undefined]) {
    const res = await get(priv, auth);
    assert.is(res.response.status, 404);
    assertSpec('repoGetIssueTemplates', res);
  }
  const scoped = await get(priv, await wrongScope(app, r.owner, false));
  assert.is(scoped.response.status, 403);
  assertSpec('repoGetIssueTemplates', scoped);
});

test.run();
