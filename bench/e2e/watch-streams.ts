/**
 * Opening watch responses as plain readable streams, over HTTP/1.1 (one keep-alive connection
 * each) or HTTP/2 (streams on one shared connection, as an informer-heavy Go client does).
 */
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { request } from 'node:https';
import type { Readable } from 'node:stream';
import { baseHeaders, keepAliveAgent } from './https-client.js';
import type { Protocol } from './senders.js';
import type { Target } from './target.js';

export interface WatchStreams {
  /** Opens a watch; resolves with its body once the headers said 200, rejects otherwise. */
  open(path: string): Promise<Readable>;
  close(): void;
}

export async function openWatchStreams(target: Target, protocol: Protocol): Promise<WatchStreams> {
  return protocol === 'h2' ? http2Streams(target) : http1Streams(target);
}

function http1Streams(target: Target): WatchStreams {
  const agent = keepAliveAgent(target, Infinity);
  return {
    open: (path) =>
      new Promise((resolve, reject) => {
        const req = request({ host: target.host, port: target.port, path, headers: baseHeaders(target), agent }, (res) => {
          if (res.statusCode === 200) return resolve(res);
          res.resume();
          reject(new Error(`watch ${path}: HTTP ${res.statusCode}`));
        });
        req.on('error', reject);
        req.end();
      }),
    close: () => agent.destroy(),
  };
}

async function http2Streams(target: Target): Promise<WatchStreams> {
  const session: ClientHttp2Session = await new Promise((resolve, reject) => {
    const s = connect(`https://${target.host}:${target.port}`, {
      ...(target.ca ? { ca: target.ca } : {}),
      ...(target.cert ? { cert: target.cert, key: target.key } : {}),
      rejectUnauthorized: !target.insecure,
      // Up to 1,000 streams on this connection; a larger window keeps them from stalling one another.
      settings: { initialWindowSize: 4 * 2 ** 20 },
    });
    s.once('connect', () => {
      // The connection's own window too: HTTP/2's default 64 KiB would throttle 1,000 streams to round trips.
      s.setLocalWindowSize(64 * 2 ** 20);
      resolve(s);
    });
    s.once('error', reject);
  });
  const headers = Object.fromEntries(Object.entries(baseHeaders(target)).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    open: (path) =>
      new Promise((resolve, reject) => {
        const stream = session.request({ [constants.HTTP2_HEADER_PATH]: path, ...headers }, { endStream: true });
        stream.once('response', (h) => {
          const status = Number(h[constants.HTTP2_HEADER_STATUS]);
          if (status === 200) return resolve(stream);
          stream.resume();
          reject(new Error(`watch ${path}: HTTP ${status}`));
        });
        stream.once('error', reject);
      }),
    close: () => session.destroy(),
  };
}
