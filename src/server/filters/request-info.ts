/**
 * The chain's entry: turns a raw HTTP request into a {@link RequestContext} (parsed path, query,
 * abort signal, Audit-Id). Everything inside works on the context only; the response writers
 * (write-response.ts) give every response its Audit-Id and Cache-Control headers.
 */
import { randomUuid } from '../../util/random-uuid.js';
import { badRequest, internalError } from '../../api/errors.js';
import { RequestInfoError, isLongRunning, nonResourceInfo, type RequestInfoResolver } from '../request-info.js';
import { isFinished, writeError } from '../write-response.js';
import type { InFlightRequests } from '../in-flight.js';
import type { Logger } from '../logger.js';
import { LiveRequestContext } from '../live-request-context.js';
import { RequestInfoMemo } from '../request-info-memo.js';
import type { Handler, Request, RequestInfo, Response } from '../request-context.js';

export interface RequestInfoDeps {
  readonly resolver: RequestInfoResolver;
  readonly inFlight: InFlightRequests;
  readonly logger: Logger;
}

/** A Node request listener, as http2.createSecureServer takes. */
export type RequestListener = (req: Request, res: Response) => void;

export function withRequestInfo(handler: Handler, deps: RequestInfoDeps): RequestListener {
  const serve = serveWith(handler, deps);
  return (req, res) => {
    try {
      serve(req, res);
    } catch (err) {
      // Nothing here should throw; if it does, the request fails rather than the process.
      deps.logger.error(`${req.method} ${req.url}: failed to set up the request`, err);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    }
  };
}

const CLIENT_GONE = new Error('the client closed the connection before the response ended');

function serveWith(handler: Handler, deps: RequestInfoDeps): RequestListener {
  const memo = new RequestInfoMemo();
  // One listener function for every response, not a closure made per request.
  function logResponseError(this: Response, err: unknown): void {
    deps.logger.info(`response error for ${this.req.method} ${this.req.url}: ${String(err)}`, 4);
  }
  return (req, res) => {
    const receivedAt = Date.now();
    const auditId = clientAuditId(req.headers['audit-id']) ?? randomUuid();
    res.on('error', logResponseError);

    const query = parseQuery(req.url ?? '/');
    const parsed = parseInfo(req, query, deps.resolver, memo);
    const ctx = new LiveRequestContext(req, res, parsed.info, query, receivedAt, auditId, isLongRunning(parsed.info));

    if (parsed.error) {
      writeError(ctx, parsed.error, { logger: deps.logger });
      return;
    }
    // The panic-recovery filter inside handles every failure; this catch only guards against a
    // broken chain, so that no request can take the process down.
    handler(ctx).catch((err) => writeError(ctx, err, { logger: deps.logger }));
    // A request answered before the handler returned (a GET the watch cache had) has no work left
    // to stop and nothing for a graceful stop to wait for but the end of this turn, which the stop
    // waits for (end-batch.ts): it skips the bookkeeping below, a listener and a list entry.
    if (isFinished(res)) return;
    const done = deps.inFlight.add(ctx);
    res.on('close', () => {
      done();
      // Only a request whose client left early (or a watch) has work to stop; aborting after a
      // normal response would cost an Error and an event dispatch per request for nothing.
      // "Ended" is the handler's own end() call: over HTTP/2 a stream its client reset also
      // counts as finished (writableFinished), which left such watches running to their timeout.
      if (!res.writableEnded) ctx.abort(CLIENT_GONE);
    });
  };
}

function parseQuery(url: string): URLSearchParams {
  const q = url.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
}

/** The parsed path, or the best-known info plus the error to answer with. */
function parseInfo(req: Request, query: URLSearchParams, resolver: RequestInfoResolver, memo: RequestInfoMemo): { info: RequestInfo; error?: unknown } {
  const url = req.url ?? '/';
  const method = req.method ?? 'GET';
  const known = memo.get(method, url);
  if (known !== undefined) return { info: known };
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  let path: string;
  try {
    // Most paths hold no escape, and decoding one that holds none is a copy for nothing.
    path = rawPath.includes('%') ? decodeURIComponent(rawPath) : rawPath;
  } catch {
    return { info: nonResourceInfo(method, rawPath), error: badRequest(`invalid URL escape in path ${JSON.stringify(rawPath)}`) };
  }
  try {
    const info = resolver.resolve(method, path, query);
    memo.remember(method, url, info);
    return { info };
  } catch (err) {
    if (err instanceof RequestInfoError) {
      return { info: err.info, error: internalError(new Error(`failed to create RequestInfo: ${err.message}`)) };
    }
    return { info: nonResourceInfo(method, path), error: err };
  }
}

/** The client's Audit-ID, reused as upstream does, if it is a sane header value to echo back. */
function clientAuditId(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v !== undefined && /^[\x21-\x7e]{1,256}$/.test(v) ? v : undefined;
}
