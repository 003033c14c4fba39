/**
 * Opening watch responses as bodies that emit 'data', over HTTP/1.1 (a connection each, read by
 * the lean client of chunked-body.ts) or HTTP/2 (streams on one shared connection, as an
 * informer-heavy Go client does).
 */
import type { EventEmitter } from 'node:events';
import { constants } from 'node:http2';
import { createSecureContext } from 'node:tls';
import { getChunked } from './chunked-body.js';
import { baseHeaders, connectHttp2, http2Headers } from './https-client.js';
import type { Protocol } from './senders.js';
import type { Target } from './target.js';

/** A watch response's body: 'data' (Buffer), 'end', 'error', 'close'. */
export type WatchBody = EventEmitter & { destroy(): void };

export interface WatchStreams {
  /** Opens a watch; resolves with its body once the headers said 200, rejects otherwise. */
  open(path: string): Promise<WatchBody>;
  close(): void;
}

export async function openWatchStreams(target: Target, protocol: Protocol): Promise<WatchStreams> {
  return protocol === 'h2' ? http2Streams(target) : http1Streams(target);
}

function http1Streams(target: Target): WatchStreams {
  const secureContext = createSecureContext({
    ...(target.ca ? { ca: target.ca } : {}),
    ...(target.cert ? { cert: target.cert } : {}),
    ...(target.key ? { key: target.key } : {}),
  });
  const opened = new Set<WatchBody>();
  return {
    open: async (path) => {
      const body = await getChunked(target, secureContext, path, { ...baseHeaders(target), Accept: 'application/json' });
      opened.add(body);
      return body;
    },
    close: () => {
      for (const body of opened) body.destroy();
    },
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
