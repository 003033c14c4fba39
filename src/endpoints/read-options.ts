/**
 * The resourceVersion tables of the spec, for get, list and watch: which revision a read is
 * served at, decided from resourceVersion, resourceVersionMatch, limit, continue and
 * sendInitialEvents. Invalid combinations give upstream's errors (422 Invalid for ListOptions,
 * 400 BadRequest for continue with a resourceVersion).
 */
import { badRequest, invalid, type FieldError } from '../api/errors.js';
import type { ReadRevision, WatchStart } from '../storage/cacher/cache-types.js';
import { decodeContinue, LATEST, type ContinuePosition } from './continue-token.js';
import type { RequestContext } from '../server/request-context.js';
import { queryBool, queryInt64, queryOptionalBool } from '../serialization/go-query-values.js';

function listOptionsInvalid(errors: FieldError[]): Error {
  return invalid('ListOptions', 'meta.k8s.io', '', errors);
}

function forbidden(field: string, message: string): FieldError {
  return { type: 'FieldValueForbidden', field, message: `Forbidden: ${message}` };
}

function notSupported(field: string, value: string, supported: string[]): FieldError {
  return {
    type: 'FieldValueNotSupported',
    field,
    message: `Unsupported value: "${value}": supported values: ${supported.map((s) => `"${s}"`).join(', ')}`,
  };
}

/** Parses a resourceVersion into a revision; "" and absent give undefined. */
export function parseResourceVersion(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  if (!/^\d+$/.test(value)) throw badRequest(`invalid resource version: ${JSON.stringify(value)}`);
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw badRequest(`invalid resource version: ${JSON.stringify(value)}`);
  return n;
}

/**
 * The request's signal for a read that may wait for a revision the cache has not seen yet (the
 * only reads worth cancelling); undefined for the others, which spares making the signal.
 */
export function signalFor(ctx: RequestContext, at: ReadRevision): AbortSignal | undefined {
  return at.kind === 'not-older-than' || at.kind === 'exact' ? ctx.signal : undefined;
}

/** get: unset = Most Recent, 0 = Any, other = Not older than. */
export function getReadRevision(query: URLSearchParams): ReadRevision {
  const rv = parseResourceVersion(query.get('resourceVersion'));
  if (rv === undefined) return { kind: 'consistent' };
  if (rv === 0) return { kind: 'any' };
  return { kind: 'not-older-than', revision: rv };
}

export interface ListReadOptions {
  readonly at: ReadRevision;
  readonly limit: number | undefined;
  readonly continueFrom: ContinuePosition | undefined;
}

/** limit as upstream converts it (strconv.ParseInt; a bad value is a 400); 0 and below mean none. */
function parseLimit(query: URLSearchParams): number | undefined {
  const limit = queryInt64(query, 'limit');
  return limit !== undefined && limit > 0n ? Number(limit) : undefined;
}

/**
 * timeoutSeconds as upstream converts it for every ListOptions, list or watch: a value that is
 * not an int64 is a 400. Only a watch uses it (see watchTimeoutMs).
 */
function parseTimeoutSeconds(query: URLSearchParams): number | undefined {
  const seconds = queryInt64(query, 'timeoutSeconds');
  return seconds === undefined ? undefined : Number(seconds);
}

/** list: the first table of the spec. */
export function listReadOptions(query: URLSearchParams): ListReadOptions {
  const rvRaw = query.get('resourceVersion');
  const match = query.get('resourceVersionMatch') ?? '';
  const continueToken = query.get('continue') ?? '';
  // In upstream's order of conversion: timeoutSeconds, then limit.
  parseTimeoutSeconds(query);
  const limit = parseLimit(query);
  const errors: FieldError[] = [];
  if (match !== '') {
    if (rvRaw === null || rvRaw === '') errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (continueToken !== '') errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errors.push(notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && rvRaw === '0') errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (query.has('sendInitialEvents')) errors.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  if (errors.length > 0) throw listOptionsInvalid(errors);

  const rv = parseResourceVersion(rvRaw);
  if (continueToken !== '') {
    if (rv !== undefined && rv !== 0) throw badRequest('specifying resource version is not allowed when using continue');
    const position = decodeContinue(continueToken);
    const at: ReadRevision = position.revision === LATEST ? { kind: 'consistent' } : { kind: 'exact', revision: position.revision };
    return { at, limit, continueFrom: position };
  }
  let at: ReadRevision;
  if (match === 'Exact') at = { kind: 'exact', revision: rv! };
  else if (rv === undefined) at = { kind: 'consistent' };
  else if (rv === 0) at = { kind: 'any' };
  else if (match === 'NotOlderThan' || limit === undefined) at = { kind: 'not-older-than', revision: rv };
  else at = { kind: 'exact', revision: rv };
  return { at, limit, continueFrom: undefined };
}

export interface WatchReadOptions {
  /** Where the watch starts; 'after' revision 0 means after the store's current revision. */
  readonly start: WatchStart;
  readonly bookmarks: boolean;
  readonly initialEventsEndBookmark: boolean;
  /** timeoutSeconds as given (negative ends the watch at once); undefined when absent. */
  readonly timeoutSeconds: number | undefined;
}

/** watch: the third table of the spec, plus sendInitialEvents (rule 4 of Events). */
export function watchReadOptions(query: URLSearchParams): WatchReadOptions {
  const match = query.get('resourceVersionMatch') ?? '';
  // In upstream's order of conversion; a watch takes no limit, but one that does not parse is refused.
  const bookmarks = queryBool(query, 'allowWatchBookmarks');
  const timeoutSeconds = parseTimeoutSeconds(query);
  parseLimit(query);
  const sendInitialEvents = queryOptionalBool(query, 'sendInitialEvents');
  const errors: FieldError[] = [];
  if (sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    errors.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  }
  if (match !== '') {
    if (sendInitialEvents === undefined) errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') errors.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']));
  }
  if (errors.length > 0) throw listOptionsInvalid(errors);

  const rv = parseResourceVersion(query.get('resourceVersion'));
  return { ...watchStartOf(sendInitialEvents, rv, bookmarks), bookmarks, timeoutSeconds };
}

/** Where a watch starts, and whether it ends its initial state with a bookmark. */
function watchStartOf(sendInitialEvents: boolean | undefined, rv: number | undefined, bookmarks: boolean): { start: WatchStart; initialEventsEndBookmark: boolean } {
  if (sendInitialEvents === true) {
    const at: ReadRevision = rv === undefined ? { kind: 'consistent' } : rv === 0 ? { kind: 'any' } : { kind: 'not-older-than', revision: rv };
    return { start: { kind: 'initial-state', at }, initialEventsEndBookmark: bookmarks };
  }
  // No initial state: changes after the given revision, or after the current one.
  if (sendInitialEvents === false) return { start: { kind: 'after', revision: rv ?? 0 }, initialEventsEndBookmark: false };
  if (rv === undefined) return { start: { kind: 'initial-state', at: { kind: 'consistent' } }, initialEventsEndBookmark: false };
  if (rv === 0) return { start: { kind: 'initial-state', at: { kind: 'any' } }, initialEventsEndBookmark: false };
  return { start: { kind: 'after', revision: rv }, initialEventsEndBookmark: false };
}
