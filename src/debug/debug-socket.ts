/**
 * --debug-socket-path: the profiling paths and /debug/flags/v over plain HTTP on a unix socket,
 * with no authentication or authorization (whoever can open the file may use them), as upstream's
 * unprotected debug socket. Served whatever --profiling says, as upstream's is. A stale socket
 * file from an earlier run is removed first, as upstream does.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { rm } from 'node:fs/promises';
import { randomUuid } from '../util/random-uuid.js';
import { LiveRequestContext } from '../server/live-request-context.js';
import { nonResourceInfo } from '../server/request-info.js';
import { RouteTable } from '../server/router.js';
import { writeError, writeText } from '../server/write-response.js';
import type { Logger } from '../server/logger.js';
import { installDebugFlags } from './debug-flags.js';
import { installProfiling } from './pprof-routes.js';
import type { Profilers } from './profilers.js';

export class DebugSocket {
  private readonly routes = new RouteTable();
  private server: Server | undefined;

  constructor(private readonly path: string, logger: Logger, profilers: Profilers) {
    installProfiling(this.routes, profilers);
    installDebugFlags(this.routes, logger);
  }

  /** Listens on the socket path; rejects when the path cannot be listened on. */
  async listen(): Promise<void> {
    await rm(this.path, { force: true });
    const server = createServer((req, res) => this.serve(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.path, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  /** Stops listening and ends every open connection (a profile in progress is dropped). */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://debug-socket');
    const info = nonResourceInfo(req.method ?? 'GET', url.pathname);
    const ctx = new LiveRequestContext(req, res, info, url.searchParams, Date.now(), randomUuid(), true);
    res.once('close', () => ctx.abort(new Error('the client went away')));
    const handler = this.routes.match(url.pathname);
    // Go's ServeMux answer for a path it has no handler for.
    if (!handler) return writeText(ctx, 404, '404 page not found\n');
    handler(ctx).catch((err: unknown) => writeError(ctx, err));
  }
}
