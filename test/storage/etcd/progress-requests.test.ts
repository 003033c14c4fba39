/** The 'server' progress mode (etcd >= 3.4.31 / 3.5.13), which the etcd in CI cannot exercise. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { EtcdConnection } from '../../../src/storage/etcd/etcd-connection.js';
import { ProgressRequests, type ProgressSubject } from '../../../src/storage/etcd/watch/progress-requests.js';

function serverMode() {
  const calls: string[] = [];
  const subject: ProgressSubject = {
    lastRevision: 10,
    sendProgressRequest: () => calls.push('send'),
    reportProgress: (revision) => calls.push(`report ${revision}`),
  };
  const range = { key: Buffer.from('/a/'), rangeEnd: Buffer.from('/a0') };
  // The server mode never reads through the connection.
  const requests = new ProgressRequests({} as EtcdConnection, range, async () => 'server', subject, new AbortController().signal);
  return { requests, calls };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('progress requests in server mode', () => {
  it("sends the request on the stream and reports etcd's answer", async () => {
    const { requests, calls } = serverMode();
    requests.request();
    await settle();
    requests.serverAnswered(42);
    assert.deepEqual(calls, ['send', 'report 42']);
  });

  it('re-sends an unanswered request on a new stream, and reports one answer', async () => {
    const { requests, calls } = serverMode();
    requests.request();
    await settle();
    requests.watcherCreated();
    requests.serverAnswered(50);
    requests.serverAnswered(51);
    assert.deepEqual(calls, ['send', 'send', 'report 50']);
  });

  it('ignores answers nobody asked for', () => {
    const { requests, calls } = serverMode();
    requests.serverAnswered(7);
    requests.watcherCreated();
    assert.deepEqual(calls, []);
  });
});
