/**
 * Bounds every request that is not long-running by --request-timeout (or the shorter `?timeout=`
 * the client asked for). On expiry the request's signal aborts and the client gets 504 Timeout;
 * if the response had already started, the stream is reset instead, as upstream.
 */
import { badRequest, requestTimedOut } from '../../api/errors.js';
import { parseDuration } from '../duration.js';
import { Deadlines } from '../deadlines.js';
import { isLongRunning } from '../request-info.js';
import { rejectingThrows } from '../../util/promises.js';
import { abortResponse, isFinished, writeError } from '../write-response.js';
import type { Handler, RequestContext } from '../request-context.js';

export interface TimeoutDeps {
  /** --request-timeout in milliseconds; 0 disables. */
  readonly requestTimeoutMs: number;
}

export function withTimeout(handler: Handler, deps: TimeoutDeps): Handler {
  const deadlines = new Deadlines();
  return rejectingThrows((ctx) => {
    if (isLongRunning(ctx.info)) return handler(ctx);
    const timeoutMs = effectiveTimeout(ctx, deps.requestTimeoutMs);
    if (timeoutMs <= 0) return handler(ctx);
    const work = handler(ctx);
    // Answered already (a GET the watch cache had): no deadline can apply any more.
    if (isFinished(ctx.res)) return work;
    // Settles when the handler does or at the deadline, whichever is first: the chain outside
    // (the in-flight limit's slot) is never held longer than the timeout by a handler that hangs.
    return new Promise<void>((resolve, reject) => {
      const deadline = deadlines.add(ctx.receivedAt + timeoutMs, () => {
        answerTimeout(ctx);
        resolve();
      });
      // After the deadline these settle nothing: the handler's late failure is of no interest.
      work.then(
        () => {
          deadlines.cancel(deadline);
          resolve();
        },
        (err: unknown) => {
          deadlines.cancel(deadline);
          reject(err);
        },
      );
    });
  });
}

/** Aborts the request's work and answers 504, or resets a response that has already begun. */
function answerTimeout(ctx: RequestContext): void {
  const error = requestTimedOut();
  ctx.abort(error);
  if (isFinished(ctx.res)) return;
  if (ctx.res.headersSent) abortResponse(ctx.res);
  else writeError(ctx, error);
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
