/**
 * Deadlines (src/server/deadlines.ts): one timer serves every deadline; each callback runs once,
 * after its deadline, unless cancelled; an earlier deadline added later is not missed; a callback
 * may add deadlines of its own.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Deadlines } from '../../src/server/deadlines.js';
import { setTimeout as sleep } from 'node:timers/promises';

describe('Deadlines', () => {
  it('calls each expired callback once, after its deadline, and never a cancelled one', async () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    const start = Date.now();
    deadlines.add(start + 400, () => fired.push('late'));
    const cancelled = deadlines.add(start + 10, () => fired.push('cancelled'));
    deadlines.add(start + 20, () => fired.push(`early after ${Date.now() - start >= 20}`));
    deadlines.cancel(cancelled);
    deadlines.cancel(cancelled);
    await sleep(60);
    assert.deepEqual(fired, ['early after true']);
    await sleep(400);
    assert.deepEqual(fired, ['early after true', 'late']);
  });

  it('fires an earlier deadline added after a later one', async () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    deadlines.add(Date.now() + 60_000, () => fired.push('in a minute'));
    deadlines.add(Date.now() + 5, () => fired.push('soon'));
    await sleep(25);
    assert.deepEqual(fired, ['soon']);
  });

  it('lets a callback add a deadline, which fires too', async () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    deadlines.add(Date.now() + 5, () => {
      fired.push('first');
      deadlines.add(Date.now() + 5, () => fired.push('second'));
    });
    await sleep(40);
    assert.deepEqual(fired, ['first', 'second']);
  });

  it('waits out a deadline beyond what one Node timer can hold, instead of firing at once', async () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    deadlines.add(Date.now() + 40 * 24 * 3600 * 1000, () => fired.push('in 40 days'));
    await sleep(30);
    assert.deepEqual(fired, []);
  });

  it('fires a deadline already past at the next turn', async () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    deadlines.add(Date.now() - 1000, () => fired.push('past'));
    assert.deepEqual(fired, []);
    await sleep(5);
    assert.deepEqual(fired, ['past']);
  });
});
