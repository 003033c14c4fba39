/**
 * The promise helpers (src/util/promises.ts): firstDeciding asks in order, stops at the first
 * deciding answer, answers synchronously while every answer so far was, and hears the passed
 * answers in order across promises; rejectingThrows and finallyAfter keep a promise's contract.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { finallyAfter, firstDeciding, isPromise, rejectingThrows } from '../../src/util/promises.js';

type Asker = () => string | Promise<string>;

function ask(askers: Asker[], passed: string[]): string | undefined | Promise<string | undefined> {
  return firstDeciding(askers, (a) => a(), (answer) => answer.startsWith('yes'), (answer) => passed.push(answer));
}

describe('firstDeciding', () => {
  it('answers synchronously when the answers up to the deciding one are', () => {
    const passed: string[] = [];
    const asked: string[] = [];
    const answer = ask([() => 'no 1', () => 'yes 2', () => (asked.push('third'), 'yes 3')], passed);
    assert.equal(answer, 'yes 2');
    assert.deepEqual(passed, ['no 1']);
    assert.deepEqual(asked, [], 'nothing after the deciding answer is asked');
  });

  it('goes on after a promise, in order, and resolves with the deciding answer', async () => {
    const passed: string[] = [];
    const answer = ask([() => 'no 1', () => Promise.resolve('no 2'), () => 'no 3', () => Promise.resolve('yes 4')], passed);
    assert.ok(isPromise(answer));
    assert.equal(await answer, 'yes 4');
    assert.deepEqual(passed, ['no 1', 'no 2', 'no 3']);
  });

  it('gives undefined when nothing decides, synchronously or not', async () => {
    assert.equal(ask([() => 'no'], []), undefined);
    assert.equal(ask([], []), undefined);
    assert.equal(await ask([() => Promise.resolve('no')], []), undefined);
  });

  it('passes a rejection on', async () => {
    await assert.rejects(Promise.resolve(ask([() => Promise.reject(new Error('down'))], [])), /down/);
  });
});

describe('rejectingThrows and finallyAfter', () => {
  it('turn a synchronous throw into a rejection', async () => {
    const guarded = rejectingThrows((_: number): Promise<void> => {
      throw new Error('sync');
    });
    await assert.rejects(guarded(1), /sync/);
    let after = 0;
    await assert.rejects(finallyAfter(() => { throw new Error('sync'); }, () => after++), /sync/);
    assert.equal(after, 1);
  });

  it('run `after` once the work settles either way, keeping its value or failure', async () => {
    let after = 0;
    assert.equal(await finallyAfter(() => Promise.resolve(7), () => after++), 7);
    await assert.rejects(finallyAfter(() => Promise.reject(new Error('late')), () => after++), /late/);
    assert.equal(after, 2);
  });
});
