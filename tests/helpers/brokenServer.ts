// A tiny server with its own tiny spec (things that can be created, read, listed, edited, deleted and
// made private; an echo; a status), written for the fuzzer's tests: healthy by default, or with defects
// planted on purpose, each breaking its own spec in one known way. It listens on 127.0.0.1 only.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Defect =
  | 'crash' // GET /echo answers 500 when n > 1000
  | 'undeclared-status' // GET /things answers 418 (not in the spec) when q has 3 characters or more
  | 'missing-field' // GET /status leaves out the required `version`
  | 'accepts-invalid' // POST /things does not check its name (too long, not text, missing: all taken)
  | 'unreadable' // POST /things answers 201 but keeps nothing
  | 'undead' // DELETE /things/{id} answers 204 but keeps the thing
  | 'leaky' // private things are readable by anyone
  | 'leaky-to-users' // private things are readable by any signed-in user (not anonymously)
  | 'no-total-count' // GET /things leaves out the X-Total-Count header the spec requires
  | 'bad-link' // GET /things answers a Link header that is not RFC 8288
  | 'lost-update' // PATCH /things/{id} answers the change but keeps nothing
  | 'id-as-string'; // things carry their id as a string (for comparing two servers)

export const tokens = { admin: 'admin-secret-token', outsider: 'outsider-secret-token' };

const thing = {
  type: 'object',
  required: ['id', 'name', 'private'],
  properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' }, private: { type: 'boolean' }, color: { type: 'string', enum: ['red', 'green', 'blue'] } },
};
const error = { description: 'refused', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } };

export const brokenSpec = {
  openapi: '3.1.0',
  info: { title: 'things', version: '1' },
  servers: [{ url: '/api' }],
  security: [{ Token: [] }, {}],
  components: {
    securitySchemes: { Token: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    headers: {
      XTotalCount: { required: true, schema: { type: 'integer' } },
      Link: { schema: { type: 'string' } },
    },
    schemas: {
      Thing: thing,
      NewThing: {
        type: 'object', required: ['name'], additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1, maxLength: 20 }, private: { type: 'boolean' }, color: { type: 'string', enum: ['red', 'green', 'blue'] } },
      },
      EditThing: {
        type: 'object', additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1, maxLength: 20 }, color: { type: 'string', enum: ['red', 'green', 'blue'] } },
      },
      Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
      Status: { type: 'object', required: ['ok', 'version'], properties: { ok: { type: 'boolean' }, version: { type: 'string' } } },
      Echo: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
    },
  },
  paths: {
    '/things': {
      get: {
        operationId: 'listThings', tags: ['things'],
        parameters: [
          { name: 'q', in: 'query', schema: { type: 'string', maxLength: 10 } },
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 50 } },
        ],
        responses: {
          200: {
            description: 'things, newest first',
            headers: { 'X-Total-Count': { $ref: '#/components/headers/XTotalCount' }, Link: { $ref: '#/components/headers/Link' } },
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } } },
          },
          422: error,
        },
      },
      post: {
        operationId: 'createThing', tags: ['things'],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewThing' } } } },
        responses: { 201: { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } }, 401: error, 422: error },
      },
    },
    '/things/{id}': {
      parameters: [idParam],
      get: {
        operationId: 'getThing', tags: ['things'],
        responses: { 200: { description: 'the thing', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } }, 404: { description: 'none' }, 422: error },
      },
      patch: {
        operationId: 'editThing', tags: ['things'],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/EditThing' } } } },
        responses: { 200: { description: 'changed', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } }, 401: error, 404: { description: 'none' }, 422: error },
      },
      delete: {
        operationId: 'deleteThing', tags: ['things'],
        responses: { 204: { description: 'gone' }, 401: error, 404: { description: 'none' }, 422: error },
      },
    },
    '/echo': {
      get: {
        operationId: 'echo', tags: ['misc'],
        parameters: [{ name: 'n', in: 'query', required: true, schema: { type: 'integer', minimum: 0, maximum: 100000 } }],
        responses: { 200: { description: 'n', content: { 'application/json': { schema: { $ref: '#/components/schemas/Echo' } } } }, 422: error },
      },
    },
    '/status': {
      get: {
        operationId: 'getStatus', tags: ['misc'],
        responses: { 200: { description: 'up', content: { 'application/json': { schema: { $ref: '#/components/schemas/Status' } } } } },
      },
    },
  },
};

interface Thing { id: number; name: string; private: boolean; color?: string; owner: string }

/** Text no string may hold: a NUL or a lone surrogate. */
const hostile = (s: string) => /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
const length = (s: string) => [...s].length;

/** `firstId`: the id the first thing gets (a replay against a server whose ids differ from the run's). */
export async function startBrokenServer(defects: Defect[] = [], { firstId = 1 } = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const has = (d: Defect) => defects.includes(d);
  const things = new Map<number, Thing>();
  let nextId = firstId;
  const show = (t: Thing) => ({ id: has('id-as-string') ? String(t.id) : t.id, name: t.name, private: t.private, ...(t.color ? { color: t.color } : {}) });

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
    };
    const refuse = (status: number, message: string) => json(status, { message });
    const empty = (status: number) => res.writeHead(status).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://x');
    const auth = req.headers.authorization ?? '';
    const caller = auth === `token ${tokens.admin}` ? 'admin' : auth === `token ${tokens.outsider}` ? 'outsider' : auth ? 'bad' : undefined;
    if (caller === 'bad') return refuse(401, 'bad token');
    const q = (name: string) => url.searchParams.get(name);
    /** A decimal integer in [min, max], or undefined when absent; 'bad' otherwise. */
    const int = (raw: string | null, min: number, max: number): number | undefined | 'bad' => {
      if (raw === null) return undefined;
      if (!/^\d{1,15}$/.test(raw)) return 'bad';
      const n = Number(raw);
      return n < min || n > max ? 'bad' : n;
    };
    let body: unknown;
    if (chunks.length) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return refuse(422, 'the body is not JSON');
      }
    }
    /** Checks a thing's members; the problem, or undefined. */
    const members = (b: unknown, creating: boolean): string | undefined => {
      if (typeof b !== 'object' || b === null || Array.isArray(b)) return 'the body must be an object';
      const o = b as Record<string, unknown>;
      for (const k of Object.keys(o)) if (!['name', 'color', ...(creating ? ['private'] : [])].includes(k)) return `unknown member ${k}`;
      if (!(creating && has('accepts-invalid'))) {
        if (creating && o.name === undefined) return 'name is required';
        if (o.name !== undefined && (typeof o.name !== 'string' || hostile(o.name) || length(o.name) < 1 || length(o.name) > 20)) return 'name must be text of 1 to 20 characters';
      }
      if (o.private !== undefined && typeof o.private !== 'boolean') return 'private must be a boolean';
      if (o.color !== undefined && !['red', 'green', 'blue'].includes(o.color as string)) return 'color must be red, green or blue';
      return undefined;
    };
    const visible = (t: Thing) => !t.private || t.owner === caller || has('leaky') || (has('leaky-to-users') && caller !== undefined);

    const path = url.pathname;
    if (path === '/api/status' && req.method === 'GET') return json(200, has('missing-field') ? { ok: true } : { ok: true, version: '1.0' });
    if (path === '/api/echo' && req.method === 'GET') {
      const n = int(q('n'), 0, 100000);
      if (n === undefined || n === 'bad') return refuse(422, 'n must be an integer from 0 to 100000');
      if (n > 1000 && has('crash')) return refuse(500, 'overflow');
      return json(200, { n });
    }
    if (path === '/api/things') {
      if (req.method === 'GET') {
        const page = int(q('page'), 1, 1e12) ?? 1, limit = int(q('limit'), 1, 50) ?? 10;
        const text = q('q') ?? '';
        if (page === 'bad' || limit === 'bad' || hostile(text) || length(text) > 10) return refuse(422, 'bad query');
        if (length(text) >= 3 && has('undeclared-status')) return refuse(418, "I'm a teapot");
        const all = [...things.values()].filter(visible).filter((t) => t.name.includes(text)).reverse();
        const shown = all.slice((page - 1) * limit, page * limit);
        const headers: Record<string, string> = has('no-total-count') ? {} : { 'X-Total-Count': String(all.length) };
        if (page * limit < all.length) headers.Link = `<http://127.0.0.1/api/things?page=${page + 1}&limit=${limit}>; rel="next"`;
        if (has('bad-link')) headers.Link = `http://127.0.0.1/api/things?page=${page + 1}; rel=next`;
        return json(200, shown.map(show), headers);
      }
      if (req.method === 'POST') {
        if (!caller) return refuse(401, 'sign in');
        const problem = members(body, true);
        if (problem) return refuse(422, problem);
        const o = body as { name: string; private?: boolean; color?: string };
        const t: Thing = { id: nextId++, name: String(o.name), private: o.private ?? false, owner: caller, ...(o.color ? { color: o.color } : {}) };
        if (!has('unreadable')) things.set(t.id, t);
        return json(201, show(t));
      }
    }
    const m = /^\/api\/things\/([^/]+)$/.exec(path);
    if (m) {
      const id = int(decodeURIComponent(m[1]!), 0, Number.MAX_SAFE_INTEGER);
      if (id === undefined || id === 'bad') return refuse(422, 'id must be an integer');
      const t = things.get(id);
      if (!t || !visible(t)) return empty(404);
      if (req.method === 'GET') return json(200, show(t));
      if (!caller) return refuse(401, 'sign in');
      if (t.owner !== caller) return empty(404);
      if (req.method === 'PATCH') {
        const problem = members(body ?? {}, false);
        if (problem) return refuse(422, problem);
        const o = (body ?? {}) as { name?: string; color?: string };
        const changed = { ...t, ...(o.name !== undefined ? { name: o.name } : {}), ...(o.color !== undefined ? { color: o.color } : {}) };
        if (!has('lost-update')) things.set(id, changed);
        return json(200, show(changed));
      }
      if (req.method === 'DELETE') {
        if (!has('undead')) things.delete(id);
        return empty(204);
      }
    }
    return empty(404);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
