/**
 * --max-requests-inflight / --max-mutating-requests-inflight: beyond the limit a request gets 429
 * with Retry-After: 1. Long-running requests (watches) are not counted, and system:masters is
 * never refused (it may be the only way in to fix an overloaded server), as upstream.
 */
import { tooManyRequests } from '../../api/errors.js';
import { SYSTEM_MASTERS } from '../../auth/authenticator.js';
import { finallyAfter, rejectingThrows } from '../../util/promises.js';
import { isLongRunning } from '../request-info.js';
import { isFinished } from '../write-response.js';
import type { Handler, RequestContext } from '../request-context.js';

export interface MaxInFlightDeps {
  /** 0 disables the limit for read requests. */
  readonly maxRequestsInflight: number;
  /** 0 disables the limit for mutating requests. */
  readonly maxMutatingRequestsInflight: number;
}

const READ_VERBS = new Set(['get', 'list', 'watch']);

/** Counts requests in flight against a fixed limit. */
class Slots {
  private used = 0;
  constructor(private readonly limit: number) {}
  tryAcquire(): boolean {
    if (this.used >= this.limit) return false;
    this.used++;
    return true;
  }
  release(): void {
    this.used--;
  }
}

export function withMaxInFlight(handler: Handler, deps: MaxInFlightDeps): Handler {
  const reads = deps.maxRequestsInflight > 0 ? new Slots(deps.maxRequestsInflight) : undefined;
  const writes = deps.maxMutatingRequestsInflight > 0 ? new Slots(deps.maxMutatingRequestsInflight) : undefined;
  if (!reads && !writes) return handler;
  return rejectingThrows((ctx: RequestContext) => {
    if (isLongRunning(ctx.info)) return handler(ctx);
    const slots = READ_VERBS.has(ctx.info.verb) ? reads : writes;
    if (!slots) return handler(ctx);
    if (!slots.tryAcquire()) {
      if (ctx.user?.groups.includes(SYSTEM_MASTERS)) return handler(ctx);
      throw tooManyRequests();
    }
    let work: Promise<void>;
    try {
      work = handler(ctx);
    } catch (err) {
      slots.release();
      throw err;
    }
    // A request answered before its handler returned (a GET the watch cache had) frees its slot
    // now, as upstream's filter does when the handler returns: waiting for the promise to settle
    // cost a then() and two closures on every such request.
    if (isFinished(ctx.res)) {
      slots.release();
      return work;
    }
    return finallyAfter(() => work, () => slots.release());
  });
}
