/**
 * setLongTimeout waits in steps a Node timer can hold: a delay past 2^31 - 1 ms must neither fire
 * at once (what Node does with such a delay) nor be lost. Node's mock timers stand in for the days.
 */
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { LONGEST_TIMER_MS, setLongTimeout } from '../../src/util/long-timeout.js';

describe('setLongTimeout', () => {
  /**
   * Every delay handed to setTimeout. Node's mock timers do not cut a delay down to 1 ms as the
   * real ones do, so the tests check that no delay a real timer cannot hold is ever asked for.
   */
  let delays: number[];
  let mocked: typeof setTimeout;
  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout'] });
    delays = [];
    mocked = globalThis.setTimeout;
    globalThis.setTimeout = ((callback: () => void, ms: number) => {
      delays.push(ms);
      return mocked(callback, ms);
    }) as typeof setTimeout;
  });
  afterEach(() => {
    globalThis.setTimeout = mocked;
    mock.timers.reset();
  });

  it('fires a short delay once, when it is due', () => {
    let fired = 0;
    setLongTimeout(() => fired++, 1000);
    mock.timers.tick(999);
    assert.equal(fired, 0);
    mock.timers.tick(1);
    assert.equal(fired, 1);
  });

  it('waits out a delay of 30 days in steps, then fires', () => {
    let fired = 0;
    const thirtyDays = 30 * 24 * 3600 * 1000;
    assert.ok(thirtyDays > LONGEST_TIMER_MS);
    setLongTimeout(() => fired++, thirtyDays);
    mock.timers.tick(LONGEST_TIMER_MS);
    assert.equal(fired, 0, 'not after the first step');
    mock.timers.tick(thirtyDays - LONGEST_TIMER_MS - 1);
    assert.equal(fired, 0, 'not a millisecond early');
    mock.timers.tick(1);
    assert.equal(fired, 1);
    assert.ok(delays.length >= 2 && delays.every((ms) => ms <= LONGEST_TIMER_MS), `delays asked for: ${delays.join(', ')}`);
  });

  it('can be cancelled between steps, and never fires for Infinity', () => {
    let fired = 0;
    const long = setLongTimeout(() => fired++, 3 * LONGEST_TIMER_MS);
    const never = setLongTimeout(() => fired++, Infinity);
    mock.timers.tick(LONGEST_TIMER_MS + 10);
    long.cancel();
    for (let i = 0; i < 5; i++) mock.timers.tick(LONGEST_TIMER_MS);
    assert.equal(fired, 0);
    assert.ok(delays.every((ms) => ms <= LONGEST_TIMER_MS), `delays asked for: ${delays.join(', ')}`);
    never.cancel();
  });
});
