/**
 * The get ceiling, as a forked process: bare Node servers answering every request with one fixed
 * body (a real GET response of the target, byte for byte): node:https for HTTP/1.1 and
 * node:http2 for HTTP/2, on two ports. Same TLS setup as Capstan: ECDSA P-256 serving
 * certificate, client certificate requested and verified but not required.
 */
import { createSecureServer } from 'node:http2';
import { createServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { AddressInfo, Server } from 'node:net';

/** What the parent sends to start the servers. */
export interface BareServerConfig {
  readonly certPem: string;
  readonly keyPem: string;
  readonly caPem: string;
  readonly body: string;
}

/** What the process answers once both listen. */
export interface BarePorts {
  readonly http1: number;
  readonly h2: number;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

if (!process.send) throw new Error('bare-server.js runs as a forked child of the benchmark');
process.once('message', (config: BareServerConfig) => {
  const body = Buffer.from(config.body);
  const headers = { 'content-type': 'application/json', 'cache-control': 'no-cache, private', 'content-length': body.length };
  const answer = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse): void => {
    // Read (and drop) any request body before answering, as a real server must.
    req.resume();
    req.on('end', () => {
      res.writeHead(200, headers);
      res.end(body);
    });
  };
  const tls = { cert: config.certPem, key: config.keyPem, ca: config.caPem, requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.2' as const };
  const http1 = createServer(tls, answer);
  http1.keepAliveTimeout = 60_000;
  const h2 = createSecureServer(tls, answer);
  void Promise.all([listen(http1), listen(h2)]).then(([p1, p2]) => process.send!({ http1: p1, h2: p2 } satisfies BarePorts));
});
process.on('disconnect', () => process.exit(0));
