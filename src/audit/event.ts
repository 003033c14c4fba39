/**
 * The audit event (audit.k8s.io/v1 Event, or audit.cluster.io/v1 in the spec's spelling) and its
 * JSON: fields in upstream's order, so that a line of Capstan's log reads like a line of the
 * upstream server's. The event has no version of its own: each backend writes it in the version it
 * was given (--audit-log-version, --audit-webhook-version). Objects are kept as values and encoded
 * when the event is written.
 */
import { escapeLikeGo } from '../serialization/json-encode.js';
import type { AuditLevel, AuditStage } from './policy.js';

export interface AuditUser {
  username?: string;
  uid?: string;
  groups?: readonly string[];
  extra?: Readonly<Record<string, readonly string[]>>;
}

/** What the request was about (upstream's audit ObjectReference), in its field order. */
export interface AuditObjectRef {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** The bounded part of a response's Status (upstream copies no more than this into the event). */
export interface AuditResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code?: number;
}

export interface AuditEvent {
  level: AuditLevel;
  auditID: string;
  stage: AuditStage;
  requestURI: string;
  verb: string;
  user: AuditUser;
  /** Whom an impersonating request acted as. */
  impersonatedUser?: AuditUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: AuditObjectRef;
  responseStatus?: AuditResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  /** MicroTime strings (RFC 3339, six fractional digits, UTC). */
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/**
 * A time as metav1.MicroTime writes it: RFC 3339 in UTC with exactly six fractional digits.
 * `epochMicros` counts microseconds since the epoch.
 */
export function formatMicroTime(epochMicros: number): string {
  const millis = Math.floor(epochMicros / 1000);
  const micros = Math.floor(epochMicros - millis * 1000);
  const iso = new Date(millis).toISOString(); // 2006-01-02T15:04:05.000Z
  return `${iso.slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
}

/** Now, in microseconds since the epoch (finer than Date.now()). */
export function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/**
 * The event as one JSON document in `apiVersion` (null: as an item of an EventList, which carries
 * no kind or apiVersion of its own), fields in upstream's order. Annotations are sorted by key, as Go
 * writes a map; empty optional fields are left out, as Go's omitempty does; <, > and & are escaped
 * as Go's encoder escapes them.
 */
export function eventJson(event: AuditEvent, apiVersion: string | null): string {
  const out: Record<string, unknown> = apiVersion === null ? {} : { kind: 'Event', apiVersion };
  Object.assign(out, {
    level: event.level,
    auditID: event.auditID,
    stage: event.stage,
    requestURI: event.requestURI,
    verb: event.verb,
    user: userJson(event.user),
  });
  if (event.impersonatedUser) out['impersonatedUser'] = userJson(event.impersonatedUser);
  if (event.sourceIPs && event.sourceIPs.length > 0) out['sourceIPs'] = event.sourceIPs;
  if (event.userAgent) out['userAgent'] = event.userAgent;
  if (event.objectRef) out['objectRef'] = withoutEmpty(event.objectRef);
  if (event.responseStatus) out['responseStatus'] = withoutEmpty(event.responseStatus, 'metadata');
  if (event.requestObject !== undefined) out['requestObject'] = event.requestObject;
  if (event.responseObject !== undefined) out['responseObject'] = event.responseObject;
  out['requestReceivedTimestamp'] = event.requestReceivedTimestamp;
  out['stageTimestamp'] = event.stageTimestamp;
  if (event.annotations && Object.keys(event.annotations).length > 0) out['annotations'] = sortedByKey(event.annotations);
  return escapeLikeGo(JSON.stringify(out));
}

function userJson(user: AuditUser): AuditUser {
  const out: AuditUser = {};
  if (user.username) out.username = user.username;
  if (user.uid) out.uid = user.uid;
  if (user.groups && user.groups.length > 0) out.groups = user.groups;
  if (user.extra && Object.keys(user.extra).length > 0) out.extra = sortedByKey(user.extra);
  return out;
}

/** A copy without the fields Go's omitempty would leave out (empty strings, zero, undefined). */
function withoutEmpty<T extends object>(value: T, ...kept: string[]): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (kept.includes(key) || (field !== undefined && field !== '' && field !== 0)) out[key] = field;
  }
  return out as Partial<T>;
}

function sortedByKey<V>(map: Readonly<Record<string, V>>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const key of Object.keys(map).sort()) out[key] = map[key]!;
  return out;
}
