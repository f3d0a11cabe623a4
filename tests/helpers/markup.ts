// Rendering and template operations: raw requests (the typed client parses JSON; these answer HTML).
import type { TestApp } from './harness.js';

/** POST a rendering operation; `text/plain` for /markdown/raw, JSON otherwise. Answers the status, type and text. */
export async function renderRequest(app: TestApp, path: '/markdown' | '/markup' | '/markdown/raw', body: unknown, authorization?: string) {
  const plain = path === '/markdown/raw';
  const response = await fetch(`${app.url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'Content-Type': plain ? 'text/plain' : 'application/json', ...(authorization ? { Authorization: authorization } : {}) },
    body: plain ? (body as string) : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type') ?? '', text };
}
