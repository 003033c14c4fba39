/**
 * Watches whose clients read slowly or not at all. The server must hold a bounded amount for each:
 * a client that stops reading is closed once the cache's queue for it is full (an ERROR event
 * after what it had been sent, DESIGN.md "a watcher that cannot keep up is closed"), and an HTTP/2
 * connection that carries such a watch still serves its other requests. A slow but reading client
 * gets a long initial state whole, however much longer it is than that queue.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import type { IncomingMessage } from 'node:http';
import { defaultCacherOptions } from '../../src/storage/cacher/cacher-options.js';
import { requestOnSession } from '../server/test-client.js';
import { createNamespace, credentialsOf, startServer, type TestServer } from './harness.js';

/** The cache's per-watcher queue: events past it close the watch. */
const WATCHER_QUEUE = defaultCacherOptions.watcherBufferSize;

const configMap = (name: string, bytes: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: 'x'.repeat(bytes) } });

/** Creates `count` ConfigMaps of `bytes` of data over `session`, `concurrency` at a time. */
async function createMany(session: ClientHttp2Session, namespace: string, prefix: string, count: number, bytes: number, concurrency = 16): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const name = `${prefix}-${next++}`;
      const { status, body } = await requestOnSession(session, {
        method: 'POST', path: `/api/v1/namespaces/${namespace}/configmaps`,
        headers: { 'content-type': 'application/json' }, body: JSON.stringify(configMap(name, bytes)),
      });
      assert.equal(status, 201, body);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** The watch events in a JSON watch body (one object per line). */
function eventsOf(body: Buffer): { type: string; object: any }[] {
  return body.toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

/** A body read to its end. */
function readAll(stream: IncomingMessage | ClientHttp2Stream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
    stream.resume();
  });
}

describe('watch backpressure', () => {
  let server: TestServer;
  let credentials: ReturnType<typeof credentialsOf>;

  before(async () => {
    server = await startServer();
    credentials = credentialsOf(server.kubeconfig);
    for (const name of ['stalled', 'backlog']) await createNamespace(server, name);
  });
  after(async () => server?.stop());

  /** Opens an HTTP/1.1 watch and stops reading it once its headers are in. */
  function stalledHttp1Watch(path: string): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port: server.port, path, ...credentials, agent: false }, (res) => {
        res.pause();
        resolve(res);
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** Opens a watch on an HTTP/2 session and stops reading it once its headers are in. */
  function stalledHttp2Watch(session: ClientHttp2Session, path: string): Promise<ClientHttp2Stream> {
    return new Promise((resolve, reject) => {
      const stream = session.request({ [constants.HTTP2_HEADER_PATH]: path });
      stream.pause();
      stream.on('response', (headers) => {
        if (Number(headers[constants.HTTP2_HEADER_STATUS]) === 200) resolve(stream);
        else reject(new Error(`watch answered ${headers[constants.HTTP2_HEADER_STATUS]}`));
      });
      stream.on('error', reject);
    });
  }

  it('closes a watch whose client stops reading, over HTTP/1.1 and HTTP/2, and keeps the HTTP/2 connection serving', { timeout: 60_000 }, async () => {
    const list = await server.request('/api/v1/namespaces/stalled/configmaps');
    const from = list.json().metadata.resourceVersion as string;
    const path = `/api/v1/namespaces/stalled/configmaps?watch=1&resourceVersion=${from}&timeoutSeconds=300`;
    const session = connect(server.url, credentials);
    try {
      const [http1, http2] = await Promise.all([stalledHttp1Watch(path), stalledHttp2Watch(session, path)]);
      // ~20 MiB of events fills whatever the sockets on both sides buffer; after that, the cache's
      // queue for each watcher fills, and it closes them.
      const writer = connect(server.url, credentials);
      try {
        await createMany(writer, 'stalled', 'big', 40, 512 * 1024, 4);
        await createMany(writer, 'stalled', 'small', WATCHER_QUEUE + 100, 100);
      } finally {
        writer.close();
      }

      // A new stream on the stalled watch's connection is still served.
      const get = await requestOnSession(session, { path: '/api/v1/namespaces/stalled/configmaps/small-0' });
      assert.equal(get.status, 200, get.body);

      for (const [protocol, body] of [['HTTP/1.1', await readAll(http1)], ['HTTP/2', await readAll(http2)]] as const) {
        const events = eventsOf(body);
        const last = events.at(-1)!;
        assert.equal(last.type, 'ERROR', `${protocol}: the watch ends with an ERROR event`);
        assert.equal(last.object.code, 500);
        assert.match(last.object.message, /could not keep up/);
        const added = events.slice(0, -1);
        assert.ok(added.every((e) => e.type === 'ADDED'), `${protocol}: only ADDED before the ERROR`);
        assert.ok(added.length < 40 + WATCHER_QUEUE + 100, `${protocol}: ${added.length} events sent, not every one of them`);
      }
    } finally {
      session.close();
    }
    assert.equal((await server.request('/readyz')).status, 200);
  });

  it('sends a slow reader an initial state longer than the per-watcher queue, whole and in order', { timeout: 60_000 }, async () => {
    const count = WATCHER_QUEUE + 200;
    const writer = connect(server.url, credentials);
    try {
      await createMany(writer, 'backlog', 'cm', count, 2048);
    } finally {
      writer.close();
    }
    const path = '/api/v1/namespaces/backlog/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=3';
    const res = await stalledHttp1Watch(path);
    // The backlog goes out 64 KiB at a time, each piece once the last has drained; not reading for
    // a while also lets the socket fill, so the watch waits on the client too.
    await new Promise((r) => setTimeout(r, 500));
    const events = eventsOf(await readAll(res));
    // (Each namespace also holds its kube-root-ca.crt ConfigMap.)
    const initial = events.filter((e) => e.type === 'ADDED' && e.object.metadata.name.startsWith('cm-'));
    assert.equal(initial.length, count);
    assert.equal(new Set(initial.map((e) => e.object.metadata.name)).size, count);
    const end = events.find((e) => e.type === 'BOOKMARK' && e.object.metadata.annotations?.['k8s.io/initial-events-end'] === 'true');
    assert.ok(end, 'the initial state ends with its bookmark');
    assert.ok(!events.some((e) => e.type === 'ERROR'), 'a slow reader is not cut off');
  });
});
