/**
 * --goaway-chance: with that probability, an HTTP/2 request makes the server send its connection
 * GOAWAY. The streams already open (watches included) run on; the client's next requests open a
 * new connection, which a load balancer in front of several servers may give to another one. Go's
 * server sends the GOAWAY with the response's headers; here it goes as the request arrives, which
 * is the same to the client: the stream that drew it is already open.
 */
import { goAwayAfter } from '../http2-goaway.js';
import type { Handler } from '../request-context.js';

export interface GoawayDeps {
  readonly goawayChance: number;
  /** Uniform in [0, 1); tests pass their own. */
  readonly random?: () => number;
}

export function withProbabilisticGoaway(handler: Handler, deps: GoawayDeps): Handler {
  if (!(deps.goawayChance > 0)) return handler;
  const random = deps.random ?? Math.random;
  return (ctx) => {
    if (ctx.req.httpVersionMajor === 2 && random() < deps.goawayChance) goAwayAfter(ctx.req);
    return handler(ctx);
  };
}
