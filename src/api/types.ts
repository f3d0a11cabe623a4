// Handler types derived from generated/: a handler can only answer a success status its operation
// declares, with that status's body; errors are thrown as domain errors (api/errors.ts).
import type { Context } from 'koa';
import type { operations } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { Services } from '../services/index.js';
import type { Auth } from './auth.js';
import type { MultipartBody } from './multipart.js';

export type OperationId = keyof operations;
type Op<K extends OperationId> = operations[K];
type SuccessStatus = 200 | 201 | 202 | 204 | 205 | 206 | 302 | 303 | 304;

type JsonBody<R> = R extends { content: { 'application/json': infer B } }
  ? B
  : R extends { content: { 'application/octet-stream': unknown } | { 'application/zip': unknown } }
    ? Buffer
    : R extends { content: { 'text/plain': unknown } }
      ? string
      : R extends { content: { 'text/html': unknown } }
        ? string
        : undefined;

export type Reply<K extends OperationId> = {
  [S in keyof Op<K>['responses'] & SuccessStatus]: JsonBody<Op<K>['responses'][S]> extends undefined
    ? { status: S; body?: undefined; headers?: Record<string, string> }
    : { status: S; body: JsonBody<Op<K>['responses'][S]>; headers?: Record<string, string> };
}[keyof Op<K>['responses'] & SuccessStatus];

type Params<K extends OperationId> = Op<K>['parameters'];
type Defined<T> = [T] extends [undefined] ? Record<string, never> : Exclude<T, undefined>;
type RequestBody<K extends OperationId> = Op<K> extends { requestBody: { content: infer C } }
  ? C extends { 'application/json': infer B }
    ? B
    : C extends { 'multipart/form-data': infer M }
      ? MultipartBody<keyof M & string>
      : C extends { 'text/plain': unknown }
        ? string
        : never
  : Op<K> extends { requestBody?: { content: infer C } }
    ? (C extends { 'application/json': infer B } ? B : never) | undefined
    : undefined;

export interface Request<K extends OperationId> {
  path: Defined<Params<K>['path']>;
  query: Defined<Params<K>['query']>;
  body: RequestBody<K>;
  auth: Auth;
  services: Services;
  config: Config;
  /** For the rare handler that must stream (uploads, git); most never touch it. */
  koa: Context;
}

export type Handler<K extends OperationId> = (req: Request<K>) => Promise<Reply<K>>;

/** Registry entry: a handler, or a marker that the operation's capability is not built yet. */
export type HandlerEntry<K extends OperationId> = Handler<K> | { notImplemented: string };

export type Registry = { [K in OperationId]: HandlerEntry<K> };

/** Declares an operation whose capability belongs to a later issue; it answers 501. */
export function later(issue: string): { notImplemented: string } {
  return { notImplemented: issue };
}
