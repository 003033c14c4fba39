/**
 * What every filter and handler sees of a request. The server builds it once per request; filters
 * fill in `user`; the router hands it to an endpoint handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { UserInfo } from '../auth/user-info.js';

export type Request = IncomingMessage | Http2ServerRequest;
export type Response = ServerResponse | Http2ServerResponse;

/** The parsed path, as upstream's RequestInfo (k8s.io/apiserver/pkg/endpoints/request). */
export interface RequestInfo {
  /** False for /healthz, /version, /apis discovery and the like. */
  readonly isResourceRequest: boolean;
  readonly path: string;
  /**
   * For resource requests: get, list, watch, create, update, patch, delete, deletecollection.
   * Otherwise the lowercase HTTP method.
   */
  readonly verb: string;
  /** "api" or "apis" for resource requests, "" otherwise. */
  readonly apiPrefix: string;
  /** "" for the core group. */
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** Path segments after the version (resource requests) or after the leading slash. */
  readonly parts: readonly string[];
}

export interface RequestContext {
  readonly req: Request;
  readonly res: Response;
  readonly info: RequestInfo;
  readonly query: URLSearchParams;
  /** Set by the authentication filter; the impersonation filter replaces it with the user a request acts as. */
  user: UserInfo | undefined;
  /** Aborts when the client goes away or the request times out. */
  readonly signal: AbortSignal;
  /** Aborts `signal` (the timeout filter ends a request this way). */
  readonly abort: (reason: unknown) => void;
  /** Warning header values to add to the response (already formatted `299 - "..."`). */
  readonly warnings: string[];
  /** When the server received the request (ms since epoch). */
  readonly receivedAt: number;
  /** The request's audit ID, also sent back as the Audit-Id header (the client's, if it sent one). */
  readonly auditId?: string;
  /** Set by the audit filter when the policy audits this request; handlers report to it. */
  audit?: AuditTrail | undefined;
}

/**
 * What the request's audit event should record beyond what the filter sees (upstream's
 * audit.LogRequestObject and friends). Each call is cheap when the level does not keep it.
 */
export interface AuditTrail {
  /** Adds an annotation (the first value given for a key stays). */
  annotate(key: string, value: string): void;
  /** The decoded request body (its metadata also names the object). */
  requestObject(object: unknown): void;
  /** A patch's body, decoded on demand: only the Request levels keep it. */
  requestPatch(decode: () => unknown): void;
  /** The response body, a Status included. */
  responseObject(object: unknown): void;
  /** The user an impersonating request acts as (the event's `user` stays the one who sent it). */
  impersonatedUser(user: UserInfo): void;
  /** Whether the response body is kept (RequestResponse), so that one built only for the event is worth building. */
  readonly keepsResponse: boolean;
}

/** Serves one request; every failure is thrown as an ApiError (or anything, which becomes a 500). */
export type Handler = (ctx: RequestContext) => Promise<void>;
