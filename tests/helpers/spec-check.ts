// Checks an answer against the spec (DESIGN §3.5): the status must be one the operation declares, and
// the body must validate against that status's schema, or be empty when the spec declares no content.
import * as assert from 'uvu/assert';
import { loadSpec } from '../../src/api/spec.js';
import type { OperationId } from '../../src/api/types.js';
import { newAjv } from '../../src/api/validate.js';

const doc = loadSpec();
const ajv = newAjv({ allErrors: true });
ajv.addSchema({ $id: 'anvil-spec', components: doc.components });

const methods = ['get', 'put', 'post', 'delete', 'patch'];
const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

function operation(operationId: string) {
  for (const item of Object.values<Record<string, { operationId?: string; responses?: Record<string, unknown> }>>(doc.paths)) {
    for (const m of methods) if (item[m]?.operationId === operationId) return item[m]!;
  }
  throw new Error(`no operation ${operationId} in the spec`);
}

function resolveResponse(r: { $ref?: string } | undefined): { content?: Record<string, { schema?: unknown }> } | undefined {
  if (!r?.$ref) return r as never;
  return doc.components.responses[r.$ref.split('/').pop()!];
}

/** Asserts that `status` and `body` (parsed JSON, or undefined for an empty body) match `operationId`'s spec. */
export function assertSpecAnswer(operationId: OperationId, status: number, body: unknown): void {
  const op = operation(operationId);
  const declared = resolveResponse(op.responses?.[String(status)] as never);
  assert.ok(declared, `${operationId} answered ${status}, which the spec does not declare`);
  const schema = declared!.content?.['application/json']?.schema as { $ref?: string } | undefined;
  const textTypes = Object.keys(declared!.content ?? {}).filter((t) => t.startsWith('text/'));
  if (!schema && textTypes.length) {
    // A text answer (text/html, text/plain): the body is the text itself.
    assert.type(body, 'string', `${operationId} ${status} answers ${textTypes.join(' or ')}`);
    return;
  }
  if (!schema) {
    assert.is(body, undefined, `${operationId} ${status} must have an empty body`);
    return;
  }
  const key = `${operationId} ${status}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"anvil-spec#/components/')));
    compiled.set(key, validate);
  }
  const ok = validate(body);
  assert.ok(ok, `${operationId} ${status} body does not match the spec: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
}

/** The same, for an openapi-fetch result. */
export function assertSpec(operationId: OperationId, result: { data?: unknown; error?: unknown; response: Response }): void {
  assertSpecAnswer(operationId, result.response.status, result.data ?? result.error);
}
