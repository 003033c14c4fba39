/**
 * Bounds every request that is not long-running by --request-timeout (or the shorter `?timeout=`
 * the client asked for). On expiry the request's signal aborts and the client gets 504 Timeout;
 * if the response had already started, the stream is reset instead, as upstream.
 */
import { badRequest, requestTimedOut } from '../../api/errors.js';
import { parseDuration } from '../duration.js';
import { isLongRunning } from '../request-info.js';
import { abortResponse, isFinished, writeError } from '../write-response.js';
import type { Handler, RequestContext } from '../request-context.js';

export interface TimeoutDeps {
  /** --request-timeout in milliseconds; 0 disables. */
  readonly requestTimeoutMs: number;
}

export function withTimeout(handler: Handler, deps: TimeoutDeps): Handler {
  return async (ctx) => {
    if (isLongRunning(ctx.info)) return handler(ctx);
    const timeoutMs = effectiveTimeout(ctx, deps.requestTimeoutMs);
    if (timeoutMs <= 0) return handler(ctx);

    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const work = Promise.resolve().then(() => handler(ctx));
    try {
      const outcome = await Promise.race([work, expired]);
      if (outcome !== 'timeout') return;
    } finally {
      clearTimeout(timer);
    }
    const error = requestTimedOut();
    ctx.abort(error);
    // The handler keeps running until it notices the abort; its late failure is of no interest.
    work.catch(() => {});
    if (isFinished(ctx.res)) return;
    if (ctx.res.headersSent) abortResponse(ctx.res);
    else writeError(ctx, error);
  };
}

/**
 * The client's `timeout` parameter shortens the server's limit but cannot extend it; 0 or an
 * absent parameter means the server's limit.
 */
function effectiveTimeout(ctx: RequestContext, serverMs: number): number {
  const raw = ctx.query.get('timeout');
  if (raw === null || raw === '') return serverMs;
  let requested: number;
  try {
    requested = parseDuration(raw);
  } catch (err) {
    throw badRequest(`invalid timeout specified in the request URL - ${(err as Error).message}`);
  }
  return requested > 0 && (serverMs <= 0 || requested < serverMs) ? requested : serverMs;
}
