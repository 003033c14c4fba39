/**
 * Serves /healthz, /livez and /readyz in upstream's text format:
 *
 *   GET /readyz?verbose          GET /readyz?exclude=etcd (failing)
 *   [+]ping ok                   [+]ping ok
 *   [+]etcd ok                   [+]etcd excluded: ok
 *   readyz check passed          [-]shutdown failed: reason withheld
 *                                readyz check failed            (500)
 *
 * Without `verbose` a passing endpoint answers just `ok`. Failure reasons go to the log only,
 * because these endpoints are readable without credentials.
 */
import { writeText } from '../server/write-response.js';
import type { Logger } from '../server/logger.js';
import type { Handler, RequestContext } from '../server/request-context.js';
import type { HealthCheck, HealthChecks, HealthEndpoint } from './health-checks.js';
import { pathNotFound } from '../api/errors.js';

const NOSNIFF = { 'X-Content-Type-Options': 'nosniff' };

/** The handler for `/<endpoint>`: every check of the endpoint. */
export function rootHealthHandler(endpoint: HealthEndpoint, checks: HealthChecks, logger: Logger): Handler {
  return async (ctx) => {
    const excluded = new Set(ctx.query.getAll('exclude'));
    const lines: string[] = [];
    const failures: string[] = [];
    for (const check of checks.checksFor(endpoint)) {
      if (excluded.delete(check.name)) {
        lines.push(`[+]${check.name} excluded: ok`);
        continue;
      }
      const error = await runCheck(check, ctx.signal);
      if (error === undefined) {
        lines.push(`[+]${check.name} ok`);
      } else {
        lines.push(`[-]${check.name} failed: reason withheld`);
        failures.push(`[-]${check.name} failed: ${error}`);
      }
    }
    if (excluded.size > 0) {
      const names = [...excluded].sort().map((n) => JSON.stringify(n)).join(',');
      lines.push(`warn: some health checks cannot be excluded: no matches for ${names}`);
    }
    if (failures.length > 0) {
      logger.info(`${endpoint} check failed:\n${failures.join('\n')}`, 2);
      writeText(ctx, 500, `${lines.join('\n')}\n${endpoint} check failed\n`, NOSNIFF);
      return;
    }
    const verbose = ctx.query.has('verbose');
    writeText(ctx, 200, verbose ? `${lines.join('\n')}\n${endpoint} check passed\n` : 'ok', NOSNIFF);
  };
}

/** The handler for the `/<endpoint>/` prefix: one check by name (`/readyz/etcd`, `/readyz/poststarthook/x`). */
export function singleHealthHandler(endpoint: HealthEndpoint, checks: HealthChecks): Handler {
  const prefix = `/${endpoint}/`;
  return async (ctx: RequestContext) => {
    const name = ctx.info.path.slice(prefix.length);
    const check = checks.checksFor(endpoint).find((c) => c.name === name);
    if (!check) throw pathNotFound();
    const error = await runCheck(check, ctx.signal);
    if (error === undefined) writeText(ctx, 200, 'ok');
    else writeText(ctx, 500, `internal server error: ${error}\n`, NOSNIFF);
  };
}

/** Runs one check; returns its failure message, or undefined when it passed. */
async function runCheck(check: HealthCheck, signal: AbortSignal): Promise<string | undefined> {
  try {
    await check.check(signal);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
