/**
 * Asking an HTTP/2 client to go away: GOAWAY on the request's connection, which lets the streams
 * already open finish and makes the client open a new connection for its next requests.
 */
import type { Http2ServerRequest } from 'node:http2';
import type { Request } from './request-context.js';

/** Sends GOAWAY on `req`'s connection if it is HTTP/2 and still open; false for HTTP/1.1. */
export function goAwayAfter(req: Request): boolean {
  if (req.httpVersionMajor !== 2) return false;
  const session = (req as Http2ServerRequest).stream.session;
  if (session !== undefined && !session.closed) session.close();
  return true;
}
