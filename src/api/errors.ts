/**
 * API errors: every failure a client sees is one of these, serialized as a Status object by the
 * one error writer. Messages and reasons match upstream's, because kubectl prints them and clients
 * branch on reason and code.
 */
import { StorageError, type CorruptValueError } from '../storage/errors.js';
import { goQuote } from '../serialization/go-format.js';

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'Timeout'
  | 'TooManyRequests'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'Expired'
  | 'ServiceUnavailable'
  | 'InternalError'
  /** metav1.StatusReasonStoreReadError's value on the wire. */
  | 'StorageReadError'
  | '';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** The wire shape of a failure (metav1.Status), in upstream's field order. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** Identifies a resource in error messages: `configmaps "cm1"` or `deployments.apps "d1"`. */
export interface ResourceRef {
  /** Plural resource name, e.g. "configmaps". */
  resource: string;
  /** API group; "" for the core group. */
  group: string;
  name: string;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
    /** Extra response headers (e.g. Retry-After). */
    readonly headers?: Record<string, string>,
    /** The Status's list metadata (a continue token to go on with), when it has any. */
    readonly listMeta?: { readonly continue: string },
  ) {
    super(message);
  }

  toStatus(): Status {
    const status: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: this.listMeta ? { ...this.listMeta } : {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.reason === '') delete status.reason;
    if (this.details) {
      // Upstream orders details before code.
      const { code, ...rest } = status;
      return { ...rest, details: this.details, code };
    }
    return status;
  }
}

/** `configmaps` for the core group, `deployments.apps` otherwise (upstream's GroupResource.String()). */
export function qualifiedResource(resource: string, group: string): string {
  return group === '' ? resource : `${resource}.${group}`;
}

function detailsOf(ref: ResourceRef): StatusDetails {
  const details: StatusDetails = { name: ref.name };
  if (ref.group !== '') details.group = ref.group;
  details.kind = ref.resource;
  return details;
}

/**
 * What upstream answers for a path nothing serves (its Status for an unknown resource): kubectl
 * prints `Error from server (NotFound): the server could not find the requested resource`.
 */
export function pathNotFound(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function notFound(ref: ResourceRef): ApiError {
  return new ApiError(404, 'NotFound', `${qualifiedResource(ref.resource, ref.group)} "${ref.name}" not found`, detailsOf(ref));
}

export function alreadyExists(ref: ResourceRef): ApiError {
  return new ApiError(409, 'AlreadyExists', `${qualifiedResource(ref.resource, ref.group)} "${ref.name}" already exists`, detailsOf(ref));
}

export function conflict(ref: ResourceRef, why: string): ApiError {
  return new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(ref.resource, ref.group)} "${ref.name}": ${why}`,
    detailsOf(ref),
  );
}

export const OBJECT_MODIFIED = 'the object has been modified; please apply your changes to the latest version and try again';

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

export function methodNotSupported(resource: string, group: string, verb: string): ApiError {
  return new ApiError(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${qualifiedResource(resource, group)}"`, {
    ...(group !== '' ? { group } : {}),
    kind: resource,
  });
}

export function notAcceptable(message: string): ApiError {
  return new ApiError(406, 'NotAcceptable', message);
}

export function gone(message: string): ApiError {
  return new ApiError(410, 'Expired', message);
}

/**
 * A paged list whose revision was compacted away (upstream's answer from storage): 410, with a
 * token in the Status's metadata that continues from the same key at the latest revision, for a
 * client that accepts a list no longer consistent.
 */
export function continueExpired(token: string): ApiError {
  return new ApiError(
    410,
    'Expired',
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue ' +
      'parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided ' +
      'token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was ' +
      'returned and now may show up in the list.',
    undefined,
    undefined,
    { continue: token },
  );
}

export function resourceVersionTooLarge(requested: string | number, current: number): ApiError {
  return new ApiError(
    504,
    'Timeout',
    `Timeout: Too large resource version: ${requested}, current: ${current}`,
    { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
    { 'Retry-After': '1' },
  );
}

export function internalError(err: unknown): ApiError {
  const why = err instanceof Error ? err.message : String(err);
  return new ApiError(500, 'InternalError', `Internal error occurred: ${why}`, { causes: [{ message: why }] });
}

export function serviceUnavailable(message: string): ApiError {
  return new ApiError(503, 'ServiceUnavailable', message);
}

export function unauthorized(): ApiError {
  return new ApiError(401, 'Unauthorized', 'Unauthorized');
}

export function forbidden(message: string, details?: StatusDetails): ApiError {
  return new ApiError(403, 'Forbidden', message, details);
}

/**
 * A write refused on `ref` (upstream's NewForbidden, which admission and the RBAC storage use):
 * `pods "p" is forbidden: <why>`, or `pods is forbidden: <why>` when the request names no object;
 * the details name the object, its group and its resource.
 */
export function forbiddenOn(ref: ResourceRef, why: string, causes?: StatusCause[]): ApiError {
  const resource = qualifiedResource(ref.resource, ref.group);
  const subject = ref.name === '' ? resource : `${resource} ${goQuote(ref.name)}`;
  return forbidden(`${subject} is forbidden: ${why}`, {
    ...(ref.name !== '' ? { name: ref.name } : {}),
    ...(ref.group !== '' ? { group: ref.group } : {}),
    kind: ref.resource,
    ...(causes ? { causes } : {}),
  });
}

/** A request that outlived --request-timeout or its own ?timeout=. */
export function requestTimedOut(): ApiError {
  return new ApiError(504, 'Timeout', 'Timeout: request did not complete within the allotted timeout', {});
}

/** Max in-flight requests reached; clients retry after the second it names. */
export function tooManyRequests(): ApiError {
  return new ApiError(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: 1 }, { 'Retry-After': '1' });
}

export function tooLarge(limit: number): ApiError {
  return new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}

/** One invalid field, as upstream's field.Error. */
export interface FieldError {
  /** FieldValueInvalid, FieldValueRequired, FieldValueForbidden, FieldValueNotSupported, FieldValueDuplicate, FieldValueTooLong, FieldValueTypeInvalid */
  type:
    | 'FieldValueInvalid'
    | 'FieldValueRequired'
    | 'FieldValueForbidden'
    | 'FieldValueNotSupported'
    | 'FieldValueDuplicate'
    | 'FieldValueTooLong'
    | 'FieldValueTooMany'
    | 'FieldValueTypeInvalid'
    | 'FieldValueNotFound';
  field: string;
  /** The message after the "Invalid value: ..." prefix has been built, e.g. `Invalid value: "x": must be ...`. */
  message: string;
}

/**
 * 422 Invalid: `ConfigMap "x" is invalid: metadata.name: Invalid value: ...`, with one cause a
 * field. `group` is the API group of the kind ("" for core).
 */
export function invalid(kind: string, group: string, name: string, errors: readonly FieldError[]): ApiError {
  const parts = errors.map((e) => `${e.field}: ${e.message}`);
  const summary = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  const details: StatusDetails = {};
  if (name !== '') details.name = name;
  if (group !== '') details.group = group;
  details.kind = kind;
  details.causes = errors.map((e) => ({ reason: e.type, message: e.message, field: e.field }));
  return new ApiError(422, 'Invalid', `${kindQualified(kind, group)} "${name}" is invalid: ${summary}`, details);
}

function kindQualified(kind: string, group: string): string {
  return group === '' ? kind : `${kind}.${group}`;
}

/**
 * A watch from a revision that was compacted away: 410 Expired with upstream's watch message
 * (`too old resource version: <requested> (<newest compacted>)`); lists word it differently.
 */
export function watchStartExpired(err: StorageError): ApiError {
  const oldest = err.revision ?? 0;
  return new ApiError(410, 'Expired', `too old resource version: ${err.requestedRevision ?? 0} (${Math.max(oldest - 1, 0)})`);
}

/** fromStorageError for failures of a watch: a compacted start revision gets the watch wording. */
export function fromWatchStorageError(err: unknown): ApiError {
  return err instanceof StorageError && err.code === 'compacted' ? watchStartExpired(err) : fromStorageError(err);
}

/**
 * Maps a storage failure to the API error clients expect. The one place that does so: handlers
 * and the registry call it and never inspect storage codes themselves.
 */
export function fromStorageError(err: unknown, ref?: ResourceRef): ApiError {
  if (err instanceof ApiError) return err;
  if (!(err instanceof StorageError)) return internalError(err);
  switch (err.code) {
    case 'key-exists':
      return ref ? alreadyExists(ref) : internalError(err);
    case 'not-found':
      return ref ? notFound(ref) : internalError(err);
    case 'conflict':
      return ref ? conflict(ref, OBJECT_MODIFIED) : internalError(err);
    case 'compacted':
      return gone(`The resourceVersion for the provided list is too old.`);
    case 'future-revision':
      return resourceVersionTooLarge(err.requestedRevision ?? '', err.revision ?? 0);
    case 'watcher-too-slow':
      return new ApiError(500, 'InternalError', 'watcher could not keep up with the event stream and was closed');
    case 'unavailable':
      return serviceUnavailable(err.message);
    case 'corrupt':
      return internalError(err);
    case 'invalid':
      return badRequest(err.message);
  }
}

/** How many undecodable objects a list names before it says there are more (upstream's limit). */
const MAX_CORRUPT_CAUSES = 100;

/**
 * A list that met undecodable objects, as upstream answers it when unsafe deletion of corrupt
 * objects is enabled (so that an operator learns which to delete): 500 StorageReadError, naming up
 * to 100 keys, each with the storage's error in upstream's words.
 */
export function storeReadError(resource: string, group: string, values: readonly CorruptValueError[]): ApiError {
  const causes: StatusCause[] = values.slice(0, MAX_CORRUPT_CAUSES).map((v) => ({
    reason: 'UnexpectedServerResponse',
    message: `StorageError: corrupt object, Code: 7, Key: ${v.key}, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=${v.revision}: ${v.reason}`,
    field: v.key,
  }));
  if (values.length > MAX_CORRUPT_CAUSES) causes.push({ reason: 'TooMany', message: 'too many errors, the list is truncated' });
  return new ApiError(500, 'StorageReadError', `failed to read one or more ${qualifiedResource(resource, group)} from the storage`, {
    name: 'list',
    ...(group !== '' ? { group } : {}),
    kind: resource,
    causes,
  });
}

/** Whether a failure is a 409 AlreadyExists (a create that lost a race). */
export function isAlreadyExists(err: unknown): boolean {
  return err instanceof ApiError && err.reason === 'AlreadyExists';
}

/** Whether a failure is a 404 NotFound (for callers that tolerate an object being gone). */
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.code === 404;
}
