import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedQueue } from '../../../src/storage/etcd/watch/bounded-queue.js';

function queue(highWater: number) {
  const flow: string[] = [];
  const q = new BoundedQueue<number>(highWater, { pause: () => flow.push('pause'), resume: () => flow.push('resume') });
  return { q, flow };
}

describe('BoundedQueue', () => {
  it('pauses the producer at the high-water mark and resumes it at half of it', async () => {
    const { q, flow } = queue(4);
    for (let i = 0; i < 4; i++) q.push(i);
    assert.deepEqual(flow, ['pause']);
    q.push(4); // what arrives after a pause is kept, not dropped
    assert.equal((await q.take()).value, 0);
    assert.equal((await q.take()).value, 1);
    assert.deepEqual(flow, ['pause']);
    assert.equal((await q.take()).value, 2);
    assert.deepEqual(flow, ['pause', 'resume']);
  });

  it('hands a waiting consumer the next item', async () => {
    const { q } = queue(4);
    const next = q.take();
    q.push(7);
    assert.deepEqual(await next, { done: false, value: 7 });
  });

  it('delivers the items before an ending error, then throws it', async () => {
    const { q } = queue(4);
    q.push(1);
    q.end(new Error('gone'));
    q.push(2); // ignored after the end
    assert.equal((await q.take()).value, 1);
    await assert.rejects(q.take(), /gone/);
  });

  it('discard ends at once without the held items', async () => {
    const { q } = queue(4);
    q.push(1);
    const waiting = queue(4).q;
    q.discard();
    assert.deepEqual(await q.take(), { done: true, value: undefined });
    const pending = waiting.take();
    waiting.discard();
    assert.deepEqual(await pending, { done: true, value: undefined });
  });
});
