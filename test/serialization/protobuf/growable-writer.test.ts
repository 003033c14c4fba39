/**
 * GrowableWriter against protobufjs's Writer, the reference for the wire format: the same fields
 * must give the same bytes, including nested messages whose length needs more than the one byte
 * reserved for it (so their content is moved), at several depths, past the initial buffer.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GrowableWriter } from '../../../src/serialization/protobuf/growable-writer.js';
import { loadWireRuntime } from '../../../src/serialization/protobuf/wire-runtime.js';

type Op = ['varint', number, number] | ['big', number, bigint] | ['packed', number, number[]] | ['double', number, number] | ['string', number, string] | ['begin', number] | ['end'];

function ours(ops: readonly Op[]): Buffer {
  const w = new GrowableWriter();
  for (const op of ops) {
    if (op[0] === 'varint') w.varint(op[1], op[2]);
    else if (op[0] === 'big') w.bigVarint(op[1], op[2]);
    else if (op[0] === 'packed') w.packedVarints(op[1], op[2]);
    else if (op[0] === 'double') w.double(op[1], op[2]);
    else if (op[0] === 'string') w.string(op[1], op[2]);
    else if (op[0] === 'begin') w.begin(op[1]);
    else w.end();
  }
  return Buffer.from(w.finish());
}

function reference(ops: readonly Op[]): Buffer {
  const w = loadWireRuntime().Writer.create();
  for (const op of ops) {
    if (op[0] === 'varint') w.uint32(op[1] * 8).uint64(op[2]);
    else if (op[0] === 'big') w.uint32(op[1] * 8).uint64(op[2].toString());
    else if (op[0] === 'packed') {
      if (op[2].length === 0) continue;
      w.uint32(op[1] * 8 + 2).fork();
      for (const v of op[2]) w.uint64(v);
      w.ldelim();
    } else if (op[0] === 'double') w.uint32(op[1] * 8 + 1).double(op[2]);
    else if (op[0] === 'string') w.uint32(op[1] * 8 + 2).string(op[2]);
    else if (op[0] === 'begin') w.uint32(op[1] * 8 + 2).fork();
    else w.ldelim();
  }
  return Buffer.from(w.finish());
}

const cases: ReadonlyArray<{ name: string; ops: Op[] }> = [
  { name: 'scalars', ops: [['varint', 1, 0], ['varint', 2, 1], ['varint', 3, 300], ['varint', 4, 2 ** 40], ['double', 5, -1.5], ['string', 6, 'größe'], ['string', 7, '']] },
  { name: 'varints past 2^53', ops: [['big', 1, 1_764_000_000_123_456_789n], ['big', 2, 0n], ['big', 3, 2n ** 64n - 1n]] },
  { name: 'packed varints, none and many', ops: [['packed', 1, []], ['packed', 2, [0, 1, 127, 128, 2 ** 40]], ['packed', 3, Array.from({ length: 100 }, (_, i) => i * 1000)]] },
  { name: 'a short nested message', ops: [['begin', 1], ['string', 1, 'a'], ['end'], ['varint', 2, 5]] },
  { name: 'an empty nested message', ops: [['begin', 3], ['end']] },
  { name: 'a nested message of 200 bytes (two length bytes)', ops: [['begin', 1], ['string', 2, 'x'.repeat(200)], ['end'], ['string', 3, 'after']] },
  {
    name: 'three levels, each past 127 bytes, the inner ones past 16,383',
    ops: [['begin', 1], ['begin', 2], ['begin', 3], ['string', 4, 'y'.repeat(20_000)], ['end'], ['string', 5, 'z'.repeat(300)], ['end'], ['end']],
  },
  { name: 'past the initial 64 KiB buffer', ops: Array.from({ length: 2000 }, (_, i): Op[] => [['begin', 9], ['string', 1, `entry-${i}-${'w'.repeat(60)}`], ['varint', 2, i], ['end']]).flat() },
];

describe('GrowableWriter', () => {
  for (const c of cases) {
    it(`writes what protobufjs writes: ${c.name}`, () => assert.deepEqual(ours(c.ops), reference(c.ops)));
  }

  it('refuses an end without a begin, and finishing with a message open', () => {
    assert.throws(() => new GrowableWriter().end(), /end\(\) without begin\(\)/);
    assert.throws(() => new GrowableWriter().begin(1).finish(), /1 messages open/);
  });
});
