/**
 * The {@link RequestContext} the chain's entry builds for each request, which is also the
 * request's entry in the in-flight registry.
 *
 * It is a class rather than an object literal for the garbage collector's sake. A literal with a
 * getter (`get signal()`) gets a hidden class of its own each time it is made; hidden classes live
 * in the old generation, and that one holds the getter's closure, and through it the request, the
 * response and everything they reach. Young-generation collections count every object an old one
 * points to as alive, so each request was kept until the next full collection: in the benchmark's
 * gets, about a fifth of everything allocated was promoted, and the young collections copied it
 * (bench/RESULTS.md, seventh session). One class gives every context the same hidden class.
 */
import type { UserInfo } from '../auth/user-info.js';
import type { InFlightRequest } from './in-flight.js';
import type { AuditTrail, Request, RequestContext, RequestInfo, Response } from './request-context.js';

export class LiveRequestContext implements RequestContext, InFlightRequest {
  user: UserInfo | undefined = undefined;
  audit: AuditTrail | undefined = undefined;
  readonly warnings: string[] = [];
  /**
   * Most requests finish without anyone asking for their signal, and an AbortController costs
   * more than the rest of a small request's setup: it is made on first use. An abort before then
   * is remembered and applied when it is made.
   */
  private controller: AbortController | undefined = undefined;
  private abortedWith: { reason: unknown } | undefined = undefined;

  constructor(
    readonly req: Request,
    readonly res: Response,
    readonly info: RequestInfo,
    readonly query: URLSearchParams,
    readonly receivedAt: number,
    readonly auditId: string,
    readonly longRunning: boolean,
  ) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedWith) this.controller.abort(this.abortedWith.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.controller) this.controller.abort(reason);
    else this.abortedWith ??= { reason };
  }
}
