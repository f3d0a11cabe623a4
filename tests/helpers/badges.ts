// Badges for the admin badge operations' tests: made through the service (the API has no operation that
// makes one, as in Gitea), given and read through the operations.
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import type { TestApp } from './harness.js';
import type { Actor } from './orgs.js';

export async function newBadge(app: TestApp, description = 'a badge'): Promise<string> {
  const slug = `badge-${randomBytes(4).toString('hex')}`;
  await app.services.badges.create({ slug, description, imageUrl: `https://example.com/${slug}.png` });
  return slug;
}

export const addBadges = (app: TestApp, by: Actor, username: string, slugs: string[]) =>
  app.client(by.auth).POST('/admin/users/{username}/badges', { params: { path: { username } }, body: { badge_slugs: slugs } });
export const removeBadges = (app: TestApp, by: Actor, username: string, slugs: string[]) =>
  app.client(by.auth).DELETE('/admin/users/{username}/badges', { params: { path: { username } }, body: { badge_slugs: slugs } });

/** The slugs of the user's badges, as a site administrator lists them. */
export async function badgesOf(app: TestApp, admin: Actor, username: string): Promise<string[]> {
  const res = await app.client(admin.auth).GET('/admin/users/{username}/badges', { params: { path: { username } } });
  assert.is(res.response.status, 200, JSON.stringify(res.error));
  return res.data!.map((b) => b.slug);
}
