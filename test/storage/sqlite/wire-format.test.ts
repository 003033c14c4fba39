import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { packOps, packOutcomes, unpackOps, unpackOutcomes } from '../../../src/storage/sqlite/wire-format.js';
import type { WriteOp, WriteOutcome } from '../../../src/storage/sqlite/write-ops.js';

describe('writer thread wire format', () => {
  it('packs the values of a batch into one buffer of exactly their size and restores the ops', () => {
    // Small Buffers are views into a shared 8 KiB pool: only their own bytes may be sent.
    const ops: WriteOp[] = [
      { kind: 'create', key: '/a', value: Buffer.from('alpha') },
      { kind: 'update', key: '/b', value: new Uint8Array(0), expectedModRevision: 7 },
      { kind: 'delete', key: '/c', expectedModRevision: undefined },
      { kind: 'delete', key: '/d', expectedModRevision: 3 },
      { kind: 'update', key: '/e', value: Buffer.from('epsilon'), expectedModRevision: 9 },
    ];
    const packed = packOps(ops);
    assert.equal(packed.values.byteLength, 'alpha'.length + 'epsilon'.length);
    const restored = unpackOps(structuredClone(packed, { transfer: [packed.values] }));
    assert.deepEqual(
      restored.map((op) => ({ ...op, ...('value' in op ? { value: Buffer.from(op.value).toString() } : {}) })),
      ops.map((op) => ({ ...op, ...('value' in op ? { value: Buffer.from(op.value).toString() } : {}) })),
    );
  });

  it('restores outcomes with their prior values', () => {
    const outcomes: WriteOutcome[] = [
      { ok: true, revision: 5, createRevision: 5, prior: undefined },
      { ok: false, reason: 'conflict', actualModRevision: 4 },
      { ok: true, revision: 6, createRevision: 2, prior: { value: Buffer.from('old'), createRevision: 2, modRevision: 4 } },
    ];
    const packed = packOutcomes(outcomes);
    const restored = unpackOutcomes(structuredClone(packed, { transfer: [packed.values] }));
    assert.deepEqual(restored.slice(0, 2), outcomes.slice(0, 2));
    const applied = restored[2]!;
    assert.ok(applied.ok && applied.prior !== undefined);
    assert.equal(Buffer.from(applied.prior.value).toString(), 'old');
    assert.deepEqual({ ...applied, prior: { ...applied.prior, value: null } }, { ...outcomes[2]!, prior: { createRevision: 2, modRevision: 4, value: null } });
  });
});
