/**
 * HTTP Strict Transport Security: with --strict-transport-security-directives, every response
 * says how long browsers must reach this server over HTTPS only. Outside the request info filter,
 * so that a response to a request it refuses carries the header too, as upstream's do.
 */
import type { RequestListener } from './request-info.js';

/** `listener`, adding the header the directives make (joined by "; "); `listener` itself for none. */
export function withHsts(listener: RequestListener, directives: readonly string[]): RequestListener {
  if (directives.length === 0) return listener;
  const value = directives.join('; ');
  return (req, res) => {
    res.setHeader('Strict-Transport-Security', value);
    listener(req, res);
  };
}
