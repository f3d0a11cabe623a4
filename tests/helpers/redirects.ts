// Requests that do not follow redirects, to see the 307 an old name of a repository or account answers.
import * as assert from 'uvu/assert';
import type { TestApp } from './harness.js';

export interface Unfollowed {
  status: number;
  location: string | null;
  body: string;
}

/** `method path` (under the server's root) with `authorization`, not following a redirect. */
export async function unfollowed(app: TestApp, method: string, path: string, authorization?: string, body?: unknown): Promise<Unfollowed> {
  const headers: Record<string, string> = {};
  if (authorization) headers.Authorization = authorization;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(new URL(path.replace(/^\//, ''), app.config.rootUrl), {
    method, headers, redirect: 'manual', body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

/** The request answers 307 to `to` (a path with its query), with an empty body. */
export async function assertRedirects(app: TestApp, method: string, path: string, to: string, authorization?: string, body?: unknown): Promise<void> {
  const r = await unfollowed(app, method, path, authorization, body);
  assert.is(r.status, 307, `${method} ${path}: ${r.body}`);
  assert.is(r.location, to, `${method} ${path}`);
  assert.is(r.body, '');
}

/** The request answers `status` without a Location (nothing about where the object went). */
export async function assertNotRedirected(app: TestApp, method: string, path: string, status: number, authorization?: string): Promise<void> {
  const r = await unfollowed(app, method, path, authorization);
  assert.is(r.status, status, `${method} ${path}`);
  assert.is(r.location, null, `${method} ${path} tells no new name`);
}
