// Parallel pushes to ONE process (issue #31): each push is recorded from what git did for it, so N
// accepted pushes make exactly N push events, N push deliveries and N workflow runs, whatever ran beside
// them. (Before, a push recorded "refs after minus refs before": six pushes of new branches made 34 events.)
import { test } from 'uvu';
import { startApp, type TestApp } from '../helpers/harness.js';
import { fastHooks, receiver, type Receiver } from '../helpers/hooks.js';
import { distinctBranches, distinctTags, sameBranch, type PushWorld } from '../helpers/parallelPushes.js';

let app: TestApp;
let rx: Receiver;
let w: PushWorld;
const n = 6;

test.before(async () => {
  rx = await receiver();
  app = await startApp({ ACTIONS_POLL_INTERVAL_MS: '50', ...fastHooks }, { workers: true, actions: true });
  w = { bases: [app.url], db: app.services.deps.db, rx, actions: true };
});
test.after(async () => {
  await app?.close();
  await rx?.close();
});

test(`${n} parallel pushes of new branches: ${n} push events, deliveries and runs`, async () => {
  await distinctBranches(w, 'par-branches', n);
});

test(`${n} parallel forced pushes to one branch: one event, delivery and run per push git accepted`, async () => {
  await sameBranch(w, 'par-same', n);
});

test(`${n} parallel pushes of new tags: ${n} push events, deliveries and runs`, async () => {
  await distinctTags(w, 'par-tags', n);
});

test.run();
