// The checks every answer must pass, whoever sends the request (the contract test in `make test`, or
// `make fuzz` against any server): a status the spec declares and never a 5xx, an invalid request never
// accepted, the declared headers, and a body that matches the declared response.
import type { Answer } from './http.js';
import { declaredFor, type DeclaredResponse } from './openapi.js';

/** The problem with the answer's status, or undefined. */
export function statusProblem(responses: Map<string, DeclaredResponse>, answer: Answer, valid: boolean): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}`;
  if (!declaredFor(responses, answer.status)) return `answered ${answer.status}, which the spec does not declare (${[...responses.keys()].join(', ')})`;
  if (!valid && answer.status < 300) return `accepted an invalid request with ${answer.status}`;
  return undefined;
}

/** One link-value of RFC 8288: `<uri>` and parameters such as `rel="next"`. */
const LINK_VALUE = /^\s*<[^<>]*>(\s*;\s*[A-Za-z0-9!#$&+.^_`|~-]+\s*=\s*("[^"]*"|[^",;\s]+))*\s*$/;

/** The problem with the answer's headers and body given its declared response, or undefined. */
export function contentProblem(response: DeclaredResponse, answer: Answer): string | undefined {
  const { status, text, contentType } = answer;
  for (const h of response.headers) {
    const value = answer.headers.get(h.name);
    if (value === null) {
      if (h.required) return `answered ${status} without the ${h.name} header the spec requires`;
      continue;
    }
    if (h.integer && !/^\d+$/.test(value.trim())) return `answered ${status} with ${h.name}: ${JSON.stringify(value)}, not an integer`;
    if (h.name === 'link' && value.split(/,(?=\s*<)/).some((part) => !LINK_VALUE.test(part))) return `answered ${status} with a malformed Link header: ${JSON.stringify(value)}`;
  }
  if (response.empty && text !== '') return `answered ${status} with a body where the spec declares none`;
  const validate = response.validate;
  if (!validate) return undefined;
  if (!/^application\/json\b/i.test(contentType)) return `answered ${status} as ${contentType || 'no content type'}, not application/json`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `answered ${status} with a body that is not JSON`;
  }
  if (!validate(body)) return `the ${status} body does not match its schema: ${JSON.stringify(validate.errors)}`;
  return undefined;
}
