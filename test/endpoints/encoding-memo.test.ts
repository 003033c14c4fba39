import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EncodingMemo } from '../../src/endpoints/encoding-memo.js';

const bytes = (n: number, fill = 1): Uint8Array => new Uint8Array(n).fill(fill);

describe('EncodingMemo', () => {
  it('encodes an object once per key and answers later reads from the memo', () => {
    const memo = new EncodingMemo(1000);
    const object = {};
    let calls = 0;
    const encode = () => (calls++, bytes(10));
    const first = memo.get(object, 'json', encode);
    assert.equal(memo.get(object, 'json', encode), first);
    assert.equal(calls, 1);
    memo.get(object, 'item:json', encode);
    assert.equal(calls, 2, 'another key is another encoding');
    assert.equal(memo.size, 20);
  });

  it('keeps at most its budget, forgetting the oldest encodings first', () => {
    const memo = new EncodingMemo(100);
    const objects = Array.from({ length: 5 }, () => ({}));
    objects.forEach((object) => memo.get(object, 'json', () => bytes(30)));
    assert.equal(memo.size, 90, 'the two oldest are forgotten to stay within 100 bytes');
    const encodedAgain = (object: object): boolean => {
      let called = false;
      memo.get(object, 'json', () => ((called = true), bytes(30)));
      return called;
    };
    assert.equal(encodedAgain(objects[4]!), false);
    assert.equal(encodedAgain(objects[0]!), true, 'a forgotten one is encoded again, and memoized as the newest');
    assert.equal(encodedAgain(objects[0]!), false);
    assert.equal(memo.size, 90);
  });

  it('memoizes a forgotten object again as the newest, and forgets the others before it', () => {
    const memo = new EncodingMemo(100);
    const object = {};
    memo.get(object, 'json', () => bytes(60, 1));
    memo.get({}, 'json', () => bytes(60)); // forgets the first
    const newer = memo.get(object, 'json', () => bytes(30, 2));
    memo.get({}, 'json', () => bytes(20)); // over budget: forgets the second, not `newer`
    assert.equal(memo.size, 50);
    assert.equal(memo.get(object, 'json', () => bytes(30, 3)), newer);
  });

  it("keeps an object's other encodings when its first is forgotten, and memoizes that one again", () => {
    const memo = new EncodingMemo(100);
    const object = {};
    memo.get(object, 'json', () => bytes(40, 1));
    const frame = memo.get(object, 'frame', () => bytes(30, 2));
    const chunk = memo.get(object, 'chunk', () => bytes(20, 3));
    memo.get({}, 'json', () => bytes(40)); // over budget: forgets the oldest, the object's json
    assert.equal(memo.size, 90);
    assert.equal(memo.get(object, 'frame', () => bytes(30, 9)), frame);
    assert.equal(memo.get(object, 'chunk', () => bytes(20, 9)), chunk);
    let encoded = 0;
    const json = memo.get(object, 'json', () => (encoded++, bytes(10, 4)));
    assert.equal(memo.get(object, 'json', () => (encoded++, bytes(10, 5))), json);
    assert.equal(encoded, 1, 'encoded again once, then memoized');
  });

  it('never memoizes an encoding larger than the budget', () => {
    const memo = new EncodingMemo(100);
    const object = {};
    assert.equal(memo.get(object, 'json', () => bytes(101)).length, 101);
    assert.equal(memo.size, 0);
  });
});
