// gitea-js (the TypeScript Gitea client) against the app: its GET methods of a namespace found from the client
// object itself (each method called once with placeholder arguments and a fetch that only records the request),
// and a client on the app. The #38 acceptance test enumerates the `repos` and `repositories` namespaces with it.
import { giteaApi } from 'gitea-js';
import type { TestApp } from './harness.js';

export type GiteaJs = ReturnType<typeof giteaApi>;
type Method = (...args: unknown[]) => Promise<unknown>;

/** A gitea-js client of the app, authenticated with `authorization` (`token <value>`), or anonymous. */
export function giteaJs(app: TestApp, authorization?: string): GiteaJs {
  return giteaApi(app.url, authorization ? { token: authorization.replace(/^token /, '') } : {});
}

/** The methods of gitea-js's `namespace` that send a GET, with the path each sends (placeholders A0, A1, …). */
export async function getMethodsOf(namespace: keyof GiteaJs): Promise<Map<string, string>> {
  let seen: { method: string; path: string } | undefined;
  const recorder = giteaApi('http://recorder.invalid', {
    customFetch: async (url: RequestInfo | URL, init?: RequestInit) => {
      seen = { method: init?.method ?? 'GET', path: new URL(String(url)).pathname.replace(/^\/api\/v1/, '') };
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  const found = new Map<string, string>();
  for (const [name, fn] of Object.entries(recorder[namespace] as Record<string, Method>)) {
    if (typeof fn !== 'function') continue;
    seen = undefined;
    await fn(...Array.from({ length: fn.length }, (_, i) => `A${i}`)).catch(() => undefined);
    const sent = seen as { method: string; path: string } | undefined;
    if (sent?.method === 'GET') found.set(name, sent.path);
  }
  return found;
}

/** Calls one gitea-js method; answers the HTTP status (gitea-js rejects non-2xx with the response). */
export async function statusOf(call: Promise<unknown>): Promise<{ status: number; body: string }> {
  try {
    const res = (await call) as Response & { error?: unknown };
    return { status: res.status, body: '' };
  } catch (err) {
    const res = err as Response & { error?: unknown };
    if (typeof res?.status !== 'number') throw err;
    return { status: res.status, body: JSON.stringify(res.error ?? '') };
  }
}
