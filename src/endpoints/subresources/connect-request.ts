/**
 * What upstream's connect handler (exec, attach, portforward, proxy) looks at in the request
 * itself, before and after it finds the target: a dry run it refuses, and whether the client asks
 * to switch protocols.
 */
import { badRequest } from '../../api/errors.js';
import type { RequestContext } from '../../server/request-context.js';

/** A connect request may not be a dry run, whatever dryRun's value; checked before anything else. */
export function refuseDryRun(query: URLSearchParams): void {
  if (query.has('dryRun')) throw badRequest('dryRun is not supported');
}

/** httpstream.IsUpgradeRequest: a Connection header naming upgrade. */
export function isUpgradeRequest(ctx: RequestContext): boolean {
  const connection = ctx.req.headers['connection'];
  return typeof connection === 'string' && connection.toLowerCase().includes('upgrade');
}
