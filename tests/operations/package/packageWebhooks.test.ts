// The `package` webhook event (Gitea's PackagePayload): a version published or deleted through any format
// or the package API reaches the owner's hooks (an organization's, a user's) and the system's, not other
// owners' hooks; the payload is the version as the package API shows it, with the sender.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { eventually, fastHooks, hookBody, orgHook, receiver, type Receiver } from '../../helpers/hooks.js';
import { actor, fresh } from '../../helpers/orgs.js';
import { packageWorld, publishGeneric, type PackageWorld } from '../../helpers/packages.js';
import { makeImage, pushImage, registryAuth } from '../../helpers/containers.js';

let app: TestApp;
let w: PackageWorld;
let hooks: Receiver;

test.before(async () => {
  app = await startApp({ ...fastHooks }, { workers: true });
  w = await packageWorld(app);
  hooks = await receiver();
});
test.after(async () => {
  await hooks.close();
  await app.close();
});

interface PackagePayload { action: string; repository: null; package: { name: string; version: string; type: string; owner: { login: string }; creator: { login: string } }; sender: { login: string } }
const payloads = () => hooks.of('package').map((r) => ({ headers: r.headers, body: JSON.parse(r.body) as PackagePayload }));

test('created and deleted reach the organization\'s hook with Gitea\'s payload; another owner\'s hook hears nothing', async () => {
  await orgHook(app, w.orgOwner.auth, w.org.name, hookBody(`${hooks.url}?org`, { events: ['package'] }));
  const other = await actor(app);
  const otherOrg = (await app.client(other.auth).POST('/orgs', { body: { username: fresh('otherorg') } })).data!;
  await orgHook(app, other.auth, otherOrg.name!, hookBody(`${hooks.url}?other`, { events: ['package'] }));

  const { name } = await publishGeneric(app, w.writer, w.org.name, { version: '1.0.0' });
  const created = await eventually(() => payloads().find((p) => p.body.package.name === name && p.body.action === 'created'), 'the created event');
  assert.is(created.headers['x-gitea-event'], 'package');
  assert.is(created.body.repository, null);
  assert.is(created.body.package.version, '1.0.0');
  assert.is(created.body.package.type, 'generic');
  assert.is(created.body.package.owner.login, w.org.name);
  assert.is(created.body.package.creator.login, w.writer.username);
  assert.is(created.body.sender.login, w.writer.username);

  // A second file in the same version is no new version: no event.
  await publishGeneric(app, w.writer, w.org.name, { name, version: '1.0.0', file: 'second.bin' });
  const del = await app.client(w.orgOwner.auth).DELETE('/packages/{owner}/{type}/{name}/{version}', { params: { path: { owner: w.org.name, type: 'generic', name, version: '1.0.0' } } });
  assert.is(del.response.status, 204);
  const deleted = await eventually(() => payloads().find((p) => p.body.package.name === name && p.body.action === 'deleted'), 'the deleted event');
  assert.is(deleted.body.sender.login, w.orgOwner.username);
  assert.is(deleted.body.package.version, '1.0.0');
  assert.is(payloads().filter((p) => p.body.package.name === name).length, 2);
  assert.ok(hooks.of('package').every((r) => r.path.endsWith('?org')));
});

test('a user\'s hook hears of their container images: a new tag is created, deleting it is deleted', async () => {
  const r = await app.client(w.user.auth).POST('/user/hooks', { body: hookBody(`${hooks.url}?user`, { events: ['package'] }) });
  assert.is(r.response.status, 201);
  const image = `${w.user.username}/${fresh('img')}`;
  const auth = await registryAuth(app, w.user.basic);
  await pushImage(app, auth, image, makeImage(image), 'v1');
  const path = image.slice(w.user.username.length + 1);
  await eventually(() => payloads().find((p) => p.body.package.name === path && p.body.action === 'created' && p.body.package.version === 'v1'), 'the image\'s created event');
  assert.is((await fetch(`${app.url}/v2/${image}/manifests/v1`, { method: 'DELETE', headers: { Authorization: auth } })).status, 202);
  await eventually(() => payloads().find((p) => p.body.package.name === path && p.body.action === 'deleted'), 'the image\'s deleted event');
  assert.is(payloads().filter((p) => p.body.package.name === path && p.body.package.type === 'container').length, 2);
});

test.run();
