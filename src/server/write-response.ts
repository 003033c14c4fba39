/**
 * How responses leave the server: {@link setResponseHead} sets a stream's head (status, Audit-Id,
 * Cache-Control, Content-Type, the Warning headers collected in the context; response-stream.ts
 * and watch streams start with it), {@link writeBody} sends a complete body with that head,
 * {@link writeError} turns any failure into a Status and {@link writeObject} writes a plain JSON
 * body. None writes to a response that has already ended (a timed-out or aborted request).
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { constants as http2 } from 'node:http2';
import { ApiError, internalError } from '../api/errors.js';
import { encodeJsonText } from '../serialization/json-encode.js';
import { prettyRequested } from '../serialization/pretty.js';
import { endThisTurn, isEnding } from './end-batch.js';
import type { Logger } from './logger.js';
import type { RequestContext, Response } from './request-context.js';

export interface WriteOptions {
  /** Indented or not whatever the request asks (default: as upstream decides, serialization/pretty.ts). */
  readonly pretty?: boolean;
  /** Extra headers, set before the body. */
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
}

/**
 * Writes `obj` with the given status code, Content-Type and Content-Length, plus a Warning header
 * per entry of `ctx.warnings`. Does nothing when the response has already ended.
 */
export function writeObject(ctx: RequestContext, statusCode: number, obj: unknown, options: WriteOptions = {}): void {
  const pretty = options.pretty ?? prettyRequested(ctx.query, ctx.req.headers['user-agent']);
  writeBody(ctx, statusCode, 'application/json', encodeJsonText(obj, pretty), options.headers);
}

/** Writes a plain text body (health endpoints); same rules as {@link writeObject}. */
export function writeText(
  ctx: RequestContext,
  statusCode: number,
  text: string,
  headers?: Readonly<Record<string, string | readonly string[]>>,
): void {
  writeBody(ctx, statusCode, 'text/plain; charset=utf-8', text, headers);
}

/** Upstream's default for every response a handler gave no Cache-Control of its own. */
const CACHE_CONTROL = 'no-cache, private';

/**
 * Sets a stream's head: status, then {@link responseHead}'s headers; sends nothing yet. Complete
 * bodies go through {@link writeBody}, which writes the same head with the body's length.
 */
export function setResponseHead(
  ctx: RequestContext,
  statusCode: number,
  contentType: string,
  headers?: Readonly<Record<string, string | readonly string[]>>,
): void {
  ctx.res.statusCode = statusCode;
  setHeaders(ctx.res, responseHead(ctx, contentType, headers));
}

/**
 * The headers every response carries, for the few that end without a body writer here (a CORS
 * preflight, a 304): Audit-Id, and Cache-Control unless the handler set its own.
 */
export function setCommonHeaders(ctx: RequestContext): void {
  setHeaders(ctx.res, commonHead(ctx));
}

/**
 * A complete body with the head {@link responseHead} describes plus its Content-Length; a GET's
 * is sent at the end of this turn of the event loop with the other reads finished in it
 * (end-batch.ts). Nothing once the response ended.
 *
 * Over HTTP/1.1 the head is given in one writeHead: node's header-by-header API (setHeader, then
 * the head built from its map at the first write) cost a GET ~0.6 µs more (bench/RESULTS.md,
 * twenty-seventh session). A header a filter or handler already set with setHeader still counts:
 * writeHead merges the head into those.
 */
export function writeBody(
  ctx: RequestContext,
  statusCode: number,
  contentType: string,
  body: string | Uint8Array,
  headers?: Readonly<Record<string, string | readonly string[]>>,
): void {
  const { res } = ctx;
  if (isFinished(res)) return;
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const head = responseHead(ctx, contentType, headers, bytes.byteLength);
  if (ctx.req.httpVersionMajor === 1) {
    (res as ServerResponse).writeHead(statusCode, head);
  } else {
    res.statusCode = statusCode;
    setHeaders(res, head);
  }
  // Reads end with the other reads of this turn (end-batch.ts). Writes end as their commit lands,
  // which already sends every write of the batch back to back; deferring them too bought nothing
  // and raised resident memory after a bulk load by ~40 MiB (bench/RESULTS.md, sixth session).
  if (ctx.req.method === 'GET') endThisTurn(res, bytes);
  else (res as ServerResponse).end(bytes);
}

/**
 * What every response with a body starts with: {@link commonHead}'s headers, Content-Type, a
 * Warning header per entry of `ctx.warnings`, `headers`, and Content-Length when it is known.
 */
function responseHead(
  ctx: RequestContext,
  contentType: string,
  headers: Readonly<Record<string, string | readonly string[]>> | undefined,
  contentLength?: number,
): OutgoingHttpHeaders {
  const head = commonHead(ctx);
  head['Content-Type'] = contentType;
  if (ctx.warnings.length > 0) head['Warning'] = [...ctx.warnings];
  if (headers !== undefined) for (const [name, value] of Object.entries(headers)) head[name] = value as string | string[];
  if (contentLength !== undefined) head['Content-Length'] = String(contentLength);
  return head;
}

/** What every response starts with: Audit-Id, and Cache-Control unless a handler set its own. */
function commonHead(ctx: RequestContext): OutgoingHttpHeaders {
  const head: OutgoingHttpHeaders = {};
  if (ctx.auditId !== undefined) head['Audit-Id'] = ctx.auditId;
  if (!ctx.res.hasHeader('Cache-Control')) head['Cache-Control'] = CACHE_CONTROL;
  return head;
}

function setHeaders(res: Response, head: OutgoingHttpHeaders): void {
  for (const [name, value] of Object.entries(head)) if (value !== undefined) res.setHeader(name, value);
}

export interface WriteErrorOptions {
  /** Where unexpected (non-ApiError) failures are logged with their stack. */
  readonly logger?: Logger;
}

/**
 * Sends any failure to the client as a Status: an {@link ApiError} with its code, reason and
 * headers (Retry-After ...); anything else as a logged 500 InternalError. If the response has
 * already started (a stream), a Status can no longer be sent: the stream is reset instead.
 */
export function writeError(ctx: RequestContext, err: unknown, options: WriteErrorOptions = {}): void {
  const apiError = err instanceof ApiError ? err : internalError(err);
  if (!(err instanceof ApiError)) {
    options.logger?.error(`${ctx.req.method} ${ctx.info.path}: unexpected error`, err);
  }
  const { res } = ctx;
  if (isFinished(res)) return;
  if (res.headersSent) {
    abortResponse(res);
    return;
  }
  const status = apiError.toStatus();
  ctx.audit?.responseObject(status);
  writeObject(ctx, apiError.code, status, { headers: apiError.headers });
}

/** True once nothing more can be written (ended or about to be, or the stream/socket is gone). */
export function isFinished(res: Response): boolean {
  return res.writableEnded || res.destroyed || isEnding(res);
}

/**
 * Breaks off a response that cannot be completed properly: HTTP/2 resets the stream, HTTP/1.1
 * closes the connection, so the client sees an incomplete response rather than a truncated
 * "success".
 */
export function abortResponse(res: Response): void {
  if ('stream' in res) {
    if (!res.stream.destroyed) res.stream.close(http2.NGHTTP2_INTERNAL_ERROR);
  } else {
    res.destroy();
  }
}
