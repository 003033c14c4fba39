/**
 * Read responses ended together at the end of the event loop's turn (src/server/end-batch.ts):
 * nothing leaves before the turn ends, everything leaves in the order it was finished, a response
 * whose connection went meanwhile is skipped, a response waiting to be ended already counts
 * as finished, so that no second writer ends it, and a stopping server can wait for the batch.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { batchWritten, endThisTurn, isEnding } from '../../src/server/end-batch.js';
import { isFinished } from '../../src/server/write-response.js';
import type { Response } from '../../src/server/request-context.js';

/** A response that records what it was ended with; only what end-batch and isFinished touch. */
function fakeResponse(name: string, ended: string[], destroyed = false): Response {
  const res = {
    destroyed,
    writableEnded: false,
    end(body: Uint8Array) {
      ended.push(`${name}:${Buffer.from(body).toString()}`);
      res.writableEnded = true;
    },
  };
  return res as unknown as Response;
}

describe('endThisTurn', () => {
  it('ends the turn\'s responses after it, in order, skipping those whose connection went', async () => {
    const ended: string[] = [];
    const a = fakeResponse('a', ended);
    const gone = fakeResponse('gone', ended, true);
    const b = fakeResponse('b', ended);
    endThisTurn(a, Buffer.from('1'));
    endThisTurn(gone, Buffer.from('2'));
    endThisTurn(b, Buffer.from('3'));
    assert.deepEqual(ended, []);
    assert.equal(isEnding(a), true);
    assert.equal(isFinished(a), true);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(ended, ['a:1', 'b:3']);
    assert.equal(isEnding(a), false);
  });

  it('keeps ending the others when one response throws', async () => {
    const ended: string[] = [];
    const broken = { destroyed: false, end: () => { throw new Error('write after end'); } } as unknown as Response;
    endThisTurn(broken, Buffer.from('x'));
    endThisTurn(fakeResponse('next', ended), Buffer.from('y'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(ended, ['next:y']);
  });
});

describe('batchWritten', () => {
  it('resolves at once when nothing waits, and after the waiting responses were ended otherwise', async () => {
    await batchWritten();
    const ended: string[] = [];
    endThisTurn(fakeResponse('a', ended), Buffer.from('1'));
    await batchWritten();
    assert.deepEqual(ended, ['a:1']);
  });
});
