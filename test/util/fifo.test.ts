import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Fifo } from '../../src/util/fifo.js';

describe('Fifo', () => {
  it('gives items back in the order they came, across compactions', () => {
    const fifo = new Fifo<number>();
    const taken: number[] = [];
    // Interleaved: the head passes the compaction point many times while items remain.
    for (let i = 0; i < 1000; i++) {
      fifo.push(i);
      fifo.push(i + 1000);
      taken.push(fifo.shift()!);
    }
    assert.equal(fifo.length, 1000);
    while (fifo.length > 0) taken.push(fifo.shift()!);
    const expected = Array.from({ length: 1000 }, (_, i) => [i, i + 1000]).flat();
    assert.deepEqual(taken, expected);
    assert.equal(fifo.shift(), undefined);
  });

  it('is empty after clear and usable again', () => {
    const fifo = new Fifo<string>();
    fifo.push('a');
    fifo.push('b');
    fifo.shift();
    fifo.clear();
    assert.equal(fifo.length, 0);
    assert.equal(fifo.shift(), undefined);
    fifo.push('c');
    assert.equal(fifo.shift(), 'c');
  });

  it('keeps the order when it is filled and emptied again and again', () => {
    const fifo = new Fifo<{ n: number }>();
    let next = 0;
    let expected = 0;
    for (let round = 0; round < 50; round++) {
      // Rounds of different sizes, some past the room it keeps, each drained in uneven steps.
      const count = (round * 337) % 5000;
      for (let i = 0; i < count; i++) fifo.push({ n: next++ });
      while (fifo.length > 0) {
        for (let i = 0; i < 7 && fifo.length > 0; i++) assert.equal(fifo.shift()!.n, expected++);
        if (fifo.length > 0 && fifo.length % 3 === 0) fifo.push({ n: next++ });
      }
    }
    assert.equal(expected, next);
  });
});
