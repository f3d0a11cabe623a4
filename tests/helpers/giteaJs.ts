// gitea-js (the Gitea API client TypeScript programs use) driven against the app: an api object for a
// credential, the GET methods of a set of its namespaces found from the client object itself (so a method
// cannot be forgotten), and a call that must answer 2xx, named in the failure. Used by the acceptance tests
// of the people (#37) and repository (#38) areas.
import { giteaApi } from 'gitea-js';
import * as assert from 'uvu/assert';
import type { TestApp } from './harness.js';

export type GiteaJs = ReturnType<typeof giteaApi>;
type Namespace = { [method: string]: (...args: never[]) => Promise<unknown> };

/** A gitea-js api object sending `authorization` (`token …`, `Basic …`; none: anonymous) on every request. */
export function giteaJs(app: TestApp, authorization?: string): GiteaJs {
  return giteaApi(app.url, {
    customFetch: (input: RequestInfo | URL, init?: RequestInit) =>
      fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), ...(authorization ? { Authorization: authorization } : {}) } }),
  });
}

export interface ClientMethod { namespace: string; name: string; method: string; path: string }

/**
 * Every method of the namespaces, with the HTTP method and path it sends: each is called once with
 * placeholder arguments against a fetch that records the request and sends nothing.
 */
export async function clientMethods(namespaces: readonly string[]): Promise<ClientMethod[]> {
  const last: { sent?: { method: string; url: string } } = {};
  const recorder = giteaApi('http://recorder.invalid', {
    customFetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      last.sent = { method: init?.method ?? 'GET', url: String(input) };
      return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
    },
  }) as unknown as Record<string, Namespace | undefined>;
  const out: ClientMethod[] = [];
  for (const namespace of namespaces) {
    const ns = recorder[namespace];
    assert.ok(ns && typeof ns === 'object', `gitea-js has no namespace ${namespace}`);
    for (const [name, fn] of Object.entries(ns!)) {
      if (typeof fn !== 'function') continue;
      last.sent = undefined;
      const args = Array.from({ length: Math.max(fn.length, 4) }, (_, i) => `p${i}`);
      await (fn as (...a: unknown[]) => Promise<unknown>)(...args.slice(0, fn.length)).catch(() => undefined);
      const sent = last.sent as { method: string; url: string } | undefined;
      assert.ok(sent, `gitea-js ${namespace}.${name} sent no request`);
      out.push({ namespace, name, method: sent!.method.toUpperCase(), path: new URL(sent!.url).pathname.replace(/^\/api\/v1/, '') });
    }
  }
  return out;
}

/** Awaits a gitea-js call and asserts it answered 2xx; answers the parsed body (null when there is none). */
export async function expect2xx<T = unknown>(name: string, call: Promise<unknown>): Promise<T> {
  let res: Response & { data?: unknown; error?: unknown };
  try {
    res = (await call) as typeof res;
  } catch (thrown) {
    const r = thrown as Response & { error?: unknown };
    if (!(r instanceof Response)) throw new Error(`${name}: ${String(thrown)}`);
    assert.unreachable(`${name} answered ${r.status} ${r.url}: ${JSON.stringify(r.error)}`);
    throw thrown;
  }
  assert.ok(res.status >= 200 && res.status < 300, `${name} answered ${res.status}`);
  return (res.data ?? null) as T;
}

/**
 * The methods found must be exactly those called plus those skipped (each skip with its reason): a method
 * gitea-js gains, or one called twice under another name, fails here.
 */
export function assertEveryMethod(found: readonly ClientMethod[], called: Iterable<string>, skipped: Record<string, string>): void {
  const calledSet = new Set(called);
  for (const [name, reason] of Object.entries(skipped)) assert.ok(reason.length > 0, `${name} is skipped without a reason`);
  const done = [...calledSet, ...Object.keys(skipped)].sort();
  assert.equal(done, found.map((m) => m.name).sort(), 'the GET methods found differ from those called plus those skipped');
}
