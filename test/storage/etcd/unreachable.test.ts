/**
 * An etcd that cannot be reached: every operation fails with 'unavailable' naming the servers,
 * checkHealth gives up after --store-healthcheck-timeout, a watch gives up after its reconnect
 * timeout, and nothing crashes the process or leaves an unhandled rejection behind.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { StorageError } from '../../../src/storage/errors.js';
import { EtcdStorage } from '../../../src/storage/etcd/etcd-storage.js';
import type { Storage } from '../../../src/storage/storage.js';
import { WatchCollector } from '../watch-collector.js';

/** A port that refuses connections: it was free a moment ago and nothing listens on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A port that accepts connections and never answers (a hung member, a black hole). */
async function silentServer(): Promise<{ port: number; stop: () => void }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    // close() alone waits for the accepted connections, which this server never ends.
    stop: () => {
      server.close();
      sockets.forEach((socket) => socket.destroy());
    },
  };
}

async function expectUnavailable(operation: Promise<unknown>, servers: string): Promise<StorageError> {
  try {
    await operation;
  } catch (err) {
    assert.ok(err instanceof StorageError, `expected a StorageError, got ${String(err)}`);
    assert.equal(err.code, 'unavailable', err.message);
    assert.ok(err.message.includes(servers), `message names the servers: ${err.message}`);
    return err;
  }
  assert.fail('expected the operation to fail');
}

describe('etcd that cannot be reached', () => {
  const stray: unknown[] = [];
  const onStray = (err: unknown) => stray.push(err);
  const stores: Storage[] = [];

  before(() => {
    process.on('unhandledRejection', onStray);
    process.on('uncaughtException', onStray);
  });
  after(async () => {
    for (const store of stores) await store.close();
    // Let late gRPC callbacks run, then make sure none of them failed unhandled.
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.off('unhandledRejection', onStray);
    process.off('uncaughtException', onStray);
    assert.deepEqual(stray, [], 'no unhandled rejection or exception');
  });

  async function open(server: string): Promise<Storage> {
    const store = await EtcdStorage.open({
      servers: [server],
      healthcheckTimeoutMs: 300,
      requestTimeoutMs: 1_000,
      watchReconnectTimeoutMs: 700,
    });
    stores.push(store);
    return store;
  }

  it('opens without connecting', async () => {
    await open(`http://127.0.0.1:${await closedPort()}`);
  });

  it("fails every operation with 'unavailable' when the connection is refused", async () => {
    const server = `http://127.0.0.1:${await closedPort()}`;
    const store = await open(server);
    const value = new Uint8Array([1]);
    const operations: ReadonlyArray<[string, () => Promise<unknown>]> = [
      ['checkHealth', () => store.checkHealth()],
      ['get', () => store.get('/registry/a')],
      ['get at a revision', () => store.get('/registry/a', 5)],
      ['list', () => store.list('/registry/', { limit: 10 })],
      ['create', () => store.create('/registry/a', value)],
      ['update', () => store.update('/registry/a', value, 3)],
      ['delete', () => store.delete('/registry/a')],
      ['currentRevision', () => store.currentRevision()],
      ['compactedRevision', () => store.compactedRevision()],
      ['compact', () => store.compact(10)],
    ];
    for (const [name, run] of operations) {
      await expectUnavailable(run(), server).catch((err: Error) => assert.fail(`${name}: ${err.message}`));
    }
  });

  it('gives up a health check after the healthcheck timeout when etcd does not answer', async () => {
    const { stop, port } = await silentServer();
    try {
      const endpoint = `http://127.0.0.1:${port}`;
      const store = await open(endpoint);
      const started = Date.now();
      const err = await expectUnavailable(store.checkHealth(), endpoint);
      const took = Date.now() - started;
      assert.ok(took < 5_000, `took ${took} ms`);
      assert.match(err.message, /300 ms/);
    } finally {
      stop();
    }
  });

  it('stops a health check when its signal aborts', async () => {
    const { stop, port } = await silentServer();
    try {
      const endpoint = `http://127.0.0.1:${port}`;
      const store = await open(endpoint);
      const controller = new AbortController();
      const check = store.checkHealth(controller.signal);
      controller.abort();
      await expectUnavailable(check, endpoint);
      await expectUnavailable(store.checkHealth(AbortSignal.abort()), endpoint);
    } finally {
      stop();
    }
  });

  it("ends a watch with 'unavailable' after its reconnect timeout, and takes progress requests meanwhile", async () => {
    const server = `http://127.0.0.1:${await closedPort()}`;
    const store = await open(server);
    const collector = new WatchCollector(store.watch('/registry/pods/', 0));
    collector.watch.requestProgress();
    const failure = await collector.ended(10_000);
    assert.ok(failure instanceof StorageError, `expected a StorageError, got ${String(failure)}`);
    assert.equal(failure.code, 'unavailable');
    assert.ok(failure.message.includes(server), failure.message);
    collector.watch.requestProgress();
  });

  it("fails operations after close() with 'unavailable' and ends open watches", async () => {
    const server = `http://127.0.0.1:${await closedPort()}`;
    const store = await EtcdStorage.open({ servers: [server], watchReconnectTimeoutMs: 60_000 });
    const collector = new WatchCollector(store.watch('/registry/pods/', 10));
    await store.close();
    assert.equal(await collector.ended(2_000), undefined);
    assert.ok(collector.finished);
    await assert.rejects(store.get('/registry/a'), (err: unknown) => err instanceof StorageError && err.code === 'unavailable');
  });
});
