/**
 * --shutdown-send-retry-after: once a stopping server no longer takes new requests, it keeps its
 * port open until the requests it has finish, and answers every new one 429 with Retry-After: 5,
 * closing the connection after it (GOAWAY on HTTP/2), so that clients retry, maybe on another
 * replica. Health probes, metrics and the server's own loopback client are still served.
 */
import { goAwayAfter } from '../http2-goaway.js';
import type { RequestListener } from './request-info.js';

const EXEMPT_PREFIXES = ['/readyz', '/livez', '/healthz', '/metrics'];
const MESSAGE = 'The apiserver is shutting down, please try again later.\n';

/** `listener`, answering 429 instead while `refusing()` holds. */
export function withRetryAfter(listener: RequestListener, refusing: () => boolean): RequestListener {
  return (req, res) => {
    if (!refusing() || isExempt(req.url ?? '/', req.headers['user-agent'])) {
      listener(req, res);
      return;
    }
    res.statusCode = 429;
    res.setHeader('Retry-After', '5');
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // HTTP/2 has no Connection header; GOAWAY is its way of closing after this response.
    if (!goAwayAfter(req)) res.setHeader('Connection', 'close');
    res.end(MESSAGE);
  };
}

function isExempt(url: string, userAgent: string | undefined): boolean {
  return userAgent?.startsWith('kube-apiserver/') === true || EXEMPT_PREFIXES.some((prefix) => url.startsWith(prefix));
}
