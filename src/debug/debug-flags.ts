/**
 * /debug/flags/ (with --profiling, and on --debug-socket-path, as upstream): the flags that can be
 * changed while the server runs. One, as upstream: `v`, the log verbosity, set by a PUT whose body
 * is the new level, with upstream's answers (klog's wording, since scripts match on it).
 */
import { ApiError } from '../api/errors.js';
import { readBody } from '../endpoints/request-body.js';
import { INT32_MAX, INT32_MIN, parseGoInt } from '../serialization/go-int.js';
import type { Logger } from '../server/logger.js';
import type { Handler, RequestContext } from '../server/request-context.js';
import type { RouteTable } from '../server/router.js';
import { writeBody } from '../server/write-response.js';

const INDEX_HTML = `<html>
<head>
<title>/debug/flags/</title>
</head>
<body>
/debug/flags/<br>
<br>
flags:<br>
<table>
<tr>v<br>
</table>
<br>
full flags configurable<br>
</body>
</html>
`;

export function installDebugFlags(routes: RouteTable, logger: Logger): void {
  routes.add('/debug/flags', indexHandler);
  routes.addPrefix('/debug/flags/', indexHandler);
  routes.add('/debug/flags/v', verbosityHandler(logger));
}

const indexHandler: Handler = async (ctx) => {
  writeBody(ctx, 200, 'text/html; charset=utf-8', INDEX_HTML);
};

function verbosityHandler(logger: Logger): Handler {
  return async (ctx) => {
    if (ctx.req.method !== 'PUT') return plainText(ctx, 406, 'unsupported http method');
    let body: string;
    try {
      body = (await readBody(ctx)).toString('utf8');
    } catch (err) {
      // Past upstream's body limit: its 413 Status, as for any request body.
      if (err instanceof ApiError) throw err;
      return plainText(ctx, 400, `error reading request body: ${(err as Error).message}`);
    }
    const level = parseLevel(body);
    if (typeof level === 'string') return plainText(ctx, 400, `failed set klog.logging.verbosity ${body}: ${level}`);
    logger.setVerbosity(level);
    plainText(ctx, 200, `successfully set klog.logging.verbosity to ${body}`);
  };
}

/**
 * The level as klog reads it (Go's strconv.ParseInt, base 10, 32 bits), or Go's error text. The
 * body is taken as it is: a trailing newline is not a number, there as here.
 */
export function parseLevel(text: string): number | string {
  const level = parseGoInt(text, 'ParseInt', INT32_MIN, INT32_MAX);
  return level.error ?? Number(level.value);
}

/** A line of text, as upstream answers here: `text/plain` without a charset. */
function plainText(ctx: RequestContext, statusCode: number, line: string): void {
  writeBody(ctx, statusCode, 'text/plain', `${line}\n`);
}
