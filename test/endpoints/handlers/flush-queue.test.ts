import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FlushQueue } from '../../../src/endpoints/handlers/flush-queue.js';

describe('FlushQueue', () => {
  it('runs flushes in order, a batch per turn of the event loop', async () => {
    const queue = new FlushQueue(100);
    let turn = 0;
    let counting = true;
    // One immediate per turn of the loop: counts the turns.
    const tick = (): void => {
      turn++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const ranIn: number[] = [];
    for (let i = 0; i < 250; i++) queue.add(() => ranIn.push(turn));
    // Each batch runs in a turn of its own, so I/O (polled between turns) gets in between them.
    await new Promise((resolve) => setTimeout(resolve, 50));
    counting = false;
    assert.equal(ranIn.length, 250);
    const batches = [...new Set(ranIn)];
    assert.equal(batches.length, 3, 'three turns for 250 flushes at 100 per turn');
    assert.deepEqual(batches.map((t) => ranIn.filter((r) => r === t).length), [100, 100, 50]);
  });

  it('runs the other flushes when one throws, and reports the error', async () => {
    const errors: unknown[] = [];
    const queue = new FlushQueue(10, (err) => errors.push(err));
    const ran: number[] = [];
    for (let i = 0; i < 5; i++) {
      queue.add(() => {
        if (i === 1) throw new Error('socket gone');
        ran.push(i);
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(ran, [0, 2, 3, 4]);
    assert.equal((errors[0] as Error).message, 'socket gone');
  });

  it('takes new flushes after the queue ran dry', async () => {
    const queue = new FlushQueue(2);
    const ran: string[] = [];
    queue.add(() => ran.push('a'));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    queue.add(() => ran.push('b'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(ran, ['a', 'b']);
  });
});
