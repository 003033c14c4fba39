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
      // Keys travel end to end in one string: any character, and no key, must come back as sent.
      { kind: 'create', key: '/ns/na\u00efve\nkey,\u{1F600}', value: Buffer.from('x') },
      { kind: 'create', key: '', value: Buffer.from('y') },
    ];
    const packed = packOps(ops);
    assert.equal(packed.values.byteLength, 'alpha'.length + 'epsilon'.length + 2);
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
      { ok: false, reason: 'key-exists', actualModRevision: 3 },
      { ok: false, reason: 'not-found', actualModRevision: 0 },
      { ok: true, revision: 6, createRevision: 2, prior: { value: Buffer.from('old'), createRevision: 2, modRevision: 4 } },
    ];
    const packed = packOutcomes(outcomes);
    const restored = unpackOutcomes(structuredClone(packed, { transfer: [packed.values] }));
    assert.deepEqual(restored.slice(0, 4), outcomes.slice(0, 4));
    const applied = restored[4]!;
    assert.ok(applied.ok && applied.prior !== undefined);
    assert.equal(Buffer.from(applied.prior.value).toString(), 'old');
    assert.deepEqual({ ...applied, prior: { ...applied.prior, value: null } }, { ...outcomes[4]!, prior: { createRevision: 2, modRevision: 4, value: null } });
  });
});
