/**
 * The in-flight registry (src/server/in-flight.ts): requests leave it when their response is done,
 * in any order and at most once; a graceful stop aborts the long-running ones or all, and waits
 * only for the short-running ones.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InFlightRequests, type InFlightRequest } from '../../src/server/in-flight.js';

function request(longRunning: boolean, aborted: string[], name: string): InFlightRequest {
  return { longRunning, abort: (reason) => aborted.push(`${name}:${String(reason)}`) };
}

describe('InFlightRequests', () => {
  it('counts requests until each is done, in any order, and a second done changes nothing', () => {
    const registry = new InFlightRequests();
    const aborted: string[] = [];
    const doneA = registry.add(request(false, aborted, 'a'));
    const doneB = registry.add(request(false, aborted, 'b'));
    const doneC = registry.add(request(true, aborted, 'c'));
    assert.equal(registry.size, 3);
    doneB();
    doneB();
    assert.equal(registry.size, 2);
    registry.abortAll('stop');
    assert.deepEqual(aborted, ['a:stop', 'c:stop']);
    doneA();
    doneC();
    assert.equal(registry.size, 0);
    registry.abortAll('again');
    assert.deepEqual(aborted, ['a:stop', 'c:stop']);
  });

  it('aborts only the long-running requests when asked, even as aborts end requests', () => {
    const registry = new InFlightRequests();
    const aborted: string[] = [];
    registry.add(request(false, aborted, 'get'));
    let doneWatch = (): void => {};
    const watch: InFlightRequest = {
      longRunning: true,
      abort: (reason) => {
        aborted.push(`watch:${String(reason)}`);
        doneWatch();
      },
    };
    doneWatch = registry.add(watch);
    registry.add(request(true, aborted, 'exec'));
    registry.abortAll('shutting down', true);
    assert.deepEqual(aborted, ['watch:shutting down', 'exec:shutting down']);
    assert.equal(registry.size, 2);
  });

  it('drains when the last short-running request is done, whatever long-running ones remain', async () => {
    const registry = new InFlightRequests();
    const aborted: string[] = [];
    registry.add(request(true, aborted, 'watch'));
    await registry.drained();
    const done = registry.add(request(false, aborted, 'get'));
    let drained = false;
    const waiting = registry.drained().then(() => (drained = true));
    await Promise.resolve();
    assert.equal(drained, false);
    done();
    await waiting;
    assert.equal(drained, true);
  });
});
