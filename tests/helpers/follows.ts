// Following and blocking fixtures: people who follow each other, through the operations (which have tests
// of their own), and the counters `GET /users/{username}` shows.
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { users } from '../../src/db/schema/index.js';
import { actor, type Actor } from './orgs.js';
import type { TestApp } from './harness.js';

export interface Circle {
  /** Follows `b` and `hidden`. */
  a: Actor;
  /** Follows `a`. */
  b: Actor;
  /** Follows nobody; nobody follows them. */
  c: Actor;
  /** A user who follows `a` and whom `a` follows, then made private. */
  hidden: Actor;
  admin: Actor;
}

export async function follow(app: TestApp, by: Actor, username: string): Promise<void> {
  const res = await app.client(by.auth).PUT('/user/following/{username}', { params: { path: { username } } });
  assert.is(res.response.status, 204, `follow ${username}: ${JSON.stringify(res.error)}`);
}

export async function circle(app: TestApp): Promise<Circle> {
  const [a, b, c, hidden] = await Promise.all([actor(app), actor(app), actor(app), actor(app)]);
  const admin = { ...app.admin, auth: await app.token(app.admin, ['all']) };
  await follow(app, a, b.username);
  await follow(app, a, hidden.username);
  await follow(app, b, a.username);
  await follow(app, hidden, a.username);
  // Made private once the follows are in place (nobody may follow an account they cannot see).
  await app.services.deps.db.update(users).set({ visibility: 'private' }).where(eq(users.id, hidden.id));
  return { a, b, c, hidden, admin };
}

/** followers_count and following_count as the site administrator sees them. */
export async function countsOf(app: TestApp, username: string): Promise<[number, number]> {
  const admin = await app.token(app.admin, ['read:user']);
  const res = await app.client(admin).GET('/users/{username}', { params: { path: { username } } });
  assert.is(res.response.status, 200);
  return [res.data!.followers_count, res.data!.following_count];
}

export const logins = (xs: Array<{ login: string }>) => xs.map((x) => x.login);
