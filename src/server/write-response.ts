/**
 * The one way responses leave the server: {@link writeError} turns any failure into a Status,
 * {@link writeObject} writes a success body. Both add the Warning headers collected in the
 * context and never write to a response that has already ended (a timed-out or aborted request).
 */
import { constants as http2 } from 'node:http2';
import { ApiError, internalError } from '../api/errors.js';
import { parseGoBool } from './go-bool.js';
import type { Logger } from './logger.js';
import type { RequestContext, Response } from './request-context.js';

/** Serializes response bodies of one media type. */
export interface ResponseEncoder {
  /** The Content-Type header value, e.g. `application/json`. */
  readonly contentType: string;
  /** Encodes one object; `pretty` asks for indented output (upstream's `?pretty=true`, curl, browsers). */
  encode(obj: unknown, pretty: boolean): string | Uint8Array;
}

/**
 * JSON as upstream's serializer writes it: compact with a trailing newline, or indented by two
 * spaces without one; `<`, `>`, `&` and U+2028/9 escaped as Go's encoding/json does.
 */
export const jsonEncoder: ResponseEncoder = {
  contentType: 'application/json',
  encode(obj: unknown, pretty: boolean): string {
    const text = pretty ? JSON.stringify(obj, null, 2) : JSON.stringify(obj) + '\n';
    return escapeLikeGo(text);
  },
};

const GO_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

function escapeLikeGo(text: string): string {
  return /[<>&\u2028\u2029]/.test(text) ? text.replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]!) : text;
}

/**
 * Upstream's pretty-print rule: an explicit `pretty` query parameter decides; otherwise curl, Wget
 * and browsers get indented output.
 */
export function wantsPretty(ctx: Pick<RequestContext, 'query' | 'req'>): boolean {
  const pretty = ctx.query.get('pretty');
  if (pretty !== null && pretty !== '') return parseGoBool(pretty) ?? false;
  const agent = ctx.req.headers['user-agent'] ?? '';
  return agent.startsWith('curl') || agent.startsWith('Wget') || agent.startsWith('Mozilla/5.0');
}

export interface WriteOptions {
  /** Default: {@link jsonEncoder}. */
  readonly encoder?: ResponseEncoder;
  /** Extra headers, set before the body. */
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
}

/**
 * Writes `obj` with the given status code, Content-Type and Content-Length, plus a Warning header
 * per entry of `ctx.warnings`. Does nothing when the response has already ended.
 */
export function writeObject(ctx: RequestContext, statusCode: number, obj: unknown, options: WriteOptions = {}): void {
  const encoder = options.encoder ?? jsonEncoder;
  writeBody(ctx, statusCode, encoder.contentType, encoder.encode(obj, wantsPretty(ctx)), options.headers);
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

function writeBody(
  ctx: RequestContext,
  statusCode: number,
  contentType: string,
  body: string | Uint8Array,
  headers?: Readonly<Record<string, string | readonly string[]>>,
): void {
  const { res } = ctx;
  if (isFinished(res)) return;
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', String(bytes.byteLength));
  if (ctx.warnings.length > 0) res.setHeader('Warning', [...ctx.warnings]);
  for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value as string | string[]);
  res.statusCode = statusCode;
  res.end(bytes);
}

export interface WriteErrorOptions {
  /** Encoder for the Status body; default JSON. */
  readonly encoder?: ResponseEncoder;
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
  writeObject(ctx, apiError.code, apiError.toStatus(), { encoder: options.encoder, headers: apiError.headers });
}

/** True once nothing more can be written (ended, or the stream/socket is gone). */
export function isFinished(res: Response): boolean {
  return res.writableEnded || res.destroyed;
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
