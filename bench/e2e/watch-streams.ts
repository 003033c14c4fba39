/**
 * Opening watch responses as plain readable streams, over HTTP/1.1 (one keep-alive connection
 * each) or HTTP/2 (streams on one shared connection, as an informer-heavy Go client does).
 */
import { constants } from 'node:http2';
import { request } from 'node:https';
import type { Readable } from 'node:stream';
import { baseHeaders, connectHttp2, http2Headers, keepAliveAgent } from './https-client.js';
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
  const session = await connectHttp2(target);
  const headers = http2Headers(target);
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
