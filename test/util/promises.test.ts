/**
 * The promise helpers (src/util/promises.ts): firstDeciding asks in order, stops at the first
 * deciding answer, answers synchronously while every answer so far was, and gives every answer in
 * order when none decides, across promises; rejectingThrows and finallyAfter keep a promise's
 * contract.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { finallyAfter, firstDeciding, isPromise, NoneDecided, rejectingThrows } from '../../src/util/promises.js';

type Asker = () => string | Promise<string>;

/** Asks `askers` in turn; `heard` gets each answer as the asker gives it (after its promise). */
function ask(askers: Asker[], heard: string[]): string | NoneDecided<string> | Promise<string | NoneDecided<string>> {
  const answer = (asker: Asker, log: string[]): string | Promise<string> => {
    const a = asker();
    return isPromise(a) ? a.then((v) => (log.push(v), v)) : (log.push(a), a);
  };
  return firstDeciding(askers, heard, answer, (a) => a.startsWith('yes'));
}

describe('firstDeciding', () => {
  it('answers synchronously when the answers up to the deciding one are', () => {
    const heard: string[] = [];
    const asked: string[] = [];
    const answer = ask([() => 'no 1', () => 'yes 2', () => (asked.push('third'), 'yes 3')], heard);
    assert.equal(answer, 'yes 2');
    assert.deepEqual(heard.slice(0, -1), ['no 1'], 'the answer passed over before the deciding one');
    assert.deepEqual(asked, [], 'nothing after the deciding answer is asked');
  });

  it('goes on after a promise, in order, and resolves with the deciding answer', async () => {
    const heard: string[] = [];
    const answer = ask([() => 'no 1', () => Promise.resolve('no 2'), () => 'no 3', () => Promise.resolve('yes 4')], heard);
    assert.ok(isPromise(answer));
    assert.equal(await answer, 'yes 4');
    assert.deepEqual(heard.slice(0, -1), ['no 1', 'no 2', 'no 3']);
  });

  it('gives every answer, in order, when nothing decides, synchronously or not', async () => {
    const none = ask([() => 'no'], []);
    assert.ok(none instanceof NoneDecided);
    assert.deepEqual(none.answers, ['no']);
    const empty = ask([], []);
    assert.ok(empty instanceof NoneDecided);
    assert.deepEqual(empty.answers, []);
    const later = await ask([() => 'no 1', () => Promise.resolve('no 2'), () => 'no 3'], []);
    assert.ok(later instanceof NoneDecided);
    assert.deepEqual(later.answers, ['no 1', 'no 2', 'no 3']);
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
