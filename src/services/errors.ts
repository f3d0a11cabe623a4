// Typed domain errors. Services throw these; only api/errors.ts turns them into HTTP answers.
export abstract class DomainError extends Error {
  abstract readonly kind: string;
}
/** The thing does not exist or the caller may not know it exists. */
export class NotFound extends DomainError {
  readonly kind = 'NotFound';
  constructor(message = 'The target couldn\'t be found.') {
    super(message);
  }
}
/** No or wrong credentials. */
export class Unauthorized extends DomainError {
  readonly kind = 'Unauthorized';
}
/** Signed in, but not allowed. */
export class Forbidden extends DomainError {
  readonly kind = 'Forbidden';
}
/** The request contradicts itself or the server's rules in a way Gitea answers with 400. */
export class BadRequest extends DomainError {
  readonly kind = 'BadRequest';
}
/** Input that fails a rule (422). */
export class Invalid extends DomainError {
  readonly kind = 'Invalid';
}
/** Conflicts with the current state (409). */
export class Conflict extends DomainError {
  readonly kind = 'Conflict';
}
/** The object's state forbids the change (412). */
export class PreconditionFailed extends DomainError {
  readonly kind = 'PreconditionFailed';
}
/** Gitea's 405: the operation is not allowed on this object in its state, or for this caller (merging). */
export class NotAllowed extends DomainError {
  readonly kind = 'NotAllowed';
}
export class PayloadTooLarge extends DomainError {
  readonly kind = 'PayloadTooLarge';
}
export class RepoArchived extends DomainError {
  readonly kind = 'RepoArchived';
  constructor(message = 'repo is archived') {
    super(message);
  }
}
/** The operation exists in the spec, its capability arrives with a later issue. */
export class NotImplemented extends DomainError {
  readonly kind = 'NotImplemented';
}

/** PostgreSQL's unique_violation, raised when two writers race for the same name. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** Too many attempts: answered 429 with `Retry-After: retryAfter` (seconds). */
export class TooManyRequests extends DomainError {
  readonly kind = 'TooManyRequests';
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(message);
  }
}
