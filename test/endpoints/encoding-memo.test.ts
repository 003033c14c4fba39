import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EncodingMemo } from '../../src/endpoints/encoding-memo.js';

const bytes = (n: number, fill = 1): Uint8Array => new Uint8Array(n).fill(fill);

describe('EncodingMemo', () => {
  it('encodes once and answers later reads from the memo', () => {
    const memo = new EncodingMemo(1000);
    const encodings = new Map<string, Uint8Array>();
    let calls = 0;
    const encode = () => (calls++, bytes(10));
    const first = memo.get(encodings, 'json', encode);
    assert.equal(memo.get(encodings, 'json', encode), first);
    assert.equal(calls, 1);
    assert.equal(memo.size, 10);
  });

  it('keeps at most its budget, forgetting the oldest encodings first', () => {
    const memo = new EncodingMemo(100);
    const entries = Array.from({ length: 5 }, () => new Map<string, Uint8Array>());
    entries.forEach((encodings) => memo.get(encodings, 'json', () => bytes(30)));
    assert.equal(memo.size, 90, 'the two oldest are forgotten to stay within 100 bytes');
    assert.deepEqual(entries.map((e) => e.has('json')), [false, false, true, true, true]);
    // A forgotten one is encoded again, and memoized again as the newest.
    let calls = 0;
    memo.get(entries[0]!, 'json', () => (calls++, bytes(30)));
    assert.equal(calls, 1);
    assert.deepEqual(entries.map((e) => e.has('json')), [true, false, false, true, true]);
  });

  it('does not drop a newer encoding when an older record of the same key is forgotten', () => {
    const memo = new EncodingMemo(100);
    const encodings = new Map<string, Uint8Array>();
    memo.get(encodings, 'json', () => bytes(40, 1));
    encodings.delete('json'); // e.g. evicted and encoded again later
    const newer = memo.get(encodings, 'json', () => bytes(40, 2));
    memo.get(new Map(), 'json', () => bytes(40)); // forgets the first record
    assert.equal(encodings.get('json'), newer);
  });

  it('never memoizes an encoding larger than the budget', () => {
    const memo = new EncodingMemo(100);
    const encodings = new Map<string, Uint8Array>();
    assert.equal(memo.get(encodings, 'json', () => bytes(101)).length, 101);
    assert.equal(encodings.size, 0);
    assert.equal(memo.size, 0);
  });
});
