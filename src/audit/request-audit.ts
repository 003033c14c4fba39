/**
 * One audited request's event while the request runs (upstream's AuditContext): made from the
 * request when the policy audits it, filled in by the handlers (request and response objects) and
 * the filters (annotations, status), and handed to the sink at each stage.
 */
import type { UserInfo } from '../auth/user-info.js';
import type { AuditTrail, RequestContext } from '../server/request-context.js';
import { sourceIPs } from '../server/source-ips.js';
import { formatMicroTime, type AuditEvent, type AuditResponseStatus, type AuditUser } from './event.js';
import { levelAtLeast, type RequestAuditConfig } from './policy-evaluator.js';

const MAX_USER_AGENT_LENGTH = 1024;

export class RequestAudit implements AuditTrail {
  constructor(
    readonly event: AuditEvent,
    readonly config: RequestAuditConfig,
  ) {}

  annotate(key: string, value: string): void {
    const annotations = (this.event.annotations ??= {});
    if (!(key in annotations)) annotations[key] = value;
  }

  requestObject(object: unknown): void {
    const metadata = metadataOf(object);
    const ref = (this.event.objectRef ??= {});
    if (metadata) {
      ref.namespace ||= stringField(metadata, 'namespace');
      ref.name ||= stringField(metadata, 'name');
      ref.uid ||= stringField(metadata, 'uid');
      ref.resourceVersion ||= stringField(metadata, 'resourceVersion');
    }
    // A copy: the handler goes on to change the object it decoded (defaults, generated names).
    if (levelAtLeast(this.config.level, 'Request')) this.event.requestObject = this.kept(structuredClone(object));
  }

  requestPatch(decode: () => unknown): void {
    if (!levelAtLeast(this.config.level, 'Request')) return;
    try {
      this.event.requestObject = decode();
    } catch {
      // A patch that does not decode fails the request anyway; the event goes without it.
    }
  }

  get keepsResponse(): boolean {
    return levelAtLeast(this.config.level, 'RequestResponse');
  }

  responseObject(object: unknown): void {
    if (isStatus(object)) this.responseStatus(object);
    if (this.keepsResponse) this.event.responseObject = this.kept(object);
  }

  impersonatedUser(user: UserInfo): void {
    this.event.impersonatedUser = auditUserOf(user);
  }

  /** The bounded fields of a Status the response carries (an error, or a delete's success). */
  responseStatus(status: { status?: string; message?: string; reason?: string; details?: unknown; code?: number }): void {
    const bounded: AuditResponseStatus = { metadata: {} };
    if (status.status !== undefined) bounded.status = status.status;
    if (status.message !== undefined) bounded.message = status.message;
    if (status.reason !== undefined) bounded.reason = status.reason;
    if (status.details !== undefined) bounded.details = status.details;
    if (status.code !== undefined) bounded.code = status.code;
    this.event.responseStatus = bounded;
  }

  /** The status code, once the response has one, where no Status said more. */
  statusCode(code: number): void {
    const status = (this.event.responseStatus ??= { metadata: {} });
    status.code ??= code;
  }

  /** `object` as the event keeps it: without managedFields when the policy says so. */
  private kept(object: unknown): unknown {
    return this.config.omitManagedFields ? withoutManagedFields(object) : object;
  }
}

/** The event of a request the policy audits at `config.level`, at its RequestReceived stage. */
export function requestEvent(ctx: RequestContext, config: RequestAuditConfig): AuditEvent {
  const { req, info, user } = ctx;
  const received = formatMicroTime(ctx.receivedAt * 1000);
  const event: AuditEvent = {
    level: config.level,
    auditID: ctx.auditId ?? '',
    stage: 'RequestReceived',
    requestURI: req.url ?? '',
    verb: info.verb,
    user: user ? auditUserOf(user) : {},
    sourceIPs: sourceIPs(req),
    userAgent: userAgentOf(req.headers['user-agent']),
    requestReceivedTimestamp: received,
    stageTimestamp: received,
  };
  if (info.isResourceRequest) {
    event.objectRef = {
      resource: info.resource,
      namespace: info.namespace,
      name: info.name,
      apiGroup: info.apiGroup,
      apiVersion: info.apiVersion,
      subresource: info.subresource,
    };
  }
  return event;
}

function auditUserOf(user: UserInfo): AuditUser {
  return { username: user.name, uid: user.uid, groups: user.groups, extra: user.extra };
}

function userAgentOf(value: string | undefined): string | undefined {
  if (value === undefined || value.length <= MAX_USER_AGENT_LENGTH) return value;
  return `${value.slice(0, MAX_USER_AGENT_LENGTH)}...TRUNCATED`;
}

function metadataOf(object: unknown): Record<string, unknown> | undefined {
  if (typeof object !== 'object' || object === null) return undefined;
  const metadata = (object as { metadata?: unknown }).metadata;
  return typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>) : undefined;
}

function stringField(map: Record<string, unknown>, key: string): string | undefined {
  const value = map[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isStatus(object: unknown): object is { status?: string; code?: number } {
  return typeof object === 'object' && object !== null && (object as { kind?: unknown }).kind === 'Status';
}

/**
 * A copy without metadata.managedFields: of the object, of each item of a list, of each row's
 * object of a Table. Anything else is returned as it is.
 */
export function withoutManagedFields(object: unknown): unknown {
  if (typeof object !== 'object' || object === null) return object;
  const value = object as Record<string, unknown>;
  let out = value;
  const metadata = metadataOf(value);
  if (metadata && 'managedFields' in metadata) {
    const { managedFields: _dropped, ...rest } = metadata;
    out = { ...out, metadata: rest };
  }
  if (Array.isArray(value['items'])) out = { ...out, items: value['items'].map(withoutManagedFields) };
  if (value['kind'] === 'Table' && Array.isArray(value['rows'])) {
    out = { ...out, rows: value['rows'].map((row: Record<string, unknown>) => (row && 'object' in row ? { ...row, object: withoutManagedFields(row['object']) } : row)) };
  }
  return out;
}
