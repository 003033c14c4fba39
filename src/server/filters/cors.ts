/**
 * Cross-origin requests from browsers (--cors-allowed-origins), as upstream answers them: a
 * request whose Origin matches an allowed expression gets the Access-Control headers, and its
 * preflight (OPTIONS) is answered 204 at once, before authentication, since browsers send
 * preflights without credentials. Any other request passes through untouched.
 */
import { compileGoRegexp } from '../cors-origins.js';
import type { Handler } from '../request-context.js';
import { setCommonHeaders } from '../write-response.js';

const ALLOW_METHODS = 'POST, GET, OPTIONS, PUT, DELETE, PATCH';
const ALLOW_HEADERS = 'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since';
const EXPOSE_HEADERS = 'Date';

export function withCors(handler: Handler, deps: { readonly corsAllowedOrigins: readonly string[] }): Handler {
  if (deps.corsAllowedOrigins.length === 0) return handler;
  const allowed = deps.corsAllowedOrigins.map(compileGoRegexp);
  return (ctx) => {
    const origin = ctx.req.headers.origin;
    if (origin === undefined || origin === '' || !allowed.some((re) => re.test(origin))) return handler(ctx);
    const { res } = ctx;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
    res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
    res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    if (ctx.req.method !== 'OPTIONS') return handler(ctx);
    res.statusCode = 204;
    setCommonHeaders(ctx);
    res.end();
    return Promise.resolve();
  };
}
