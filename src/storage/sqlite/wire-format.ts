/**
 * How write batches and their outcomes cross to and from the writer thread. Structured clone
 * copies a Uint8Array together with its whole backing ArrayBuffer, and small Buffers share 8 KiB
 * pool slabs, so cloning values one by one would copy kilobytes per write. Instead all values of
 * a batch are copied once into one ArrayBuffer that is transferred (moved, not copied), and each
 * op names its value by a [start, end) span of it.
 */
import { NO_VALUE } from '../storage.js';
import type { AppliedWrite, RejectedWrite, WriteOp, WriteOutcome } from './write-ops.js';

/** [start, end) of a value in the batch's packed buffer. */
export type ValueSpan = readonly [number, number];

export interface WireWriteOp {
  readonly kind: WriteOp['kind'];
  readonly key: string;
  readonly expectedModRevision: number | undefined;
  readonly value: ValueSpan | undefined;
}

export type WireOutcome =
  | RejectedWrite
  | (Omit<AppliedWrite, 'prior'> & {
      readonly prior: { readonly value: ValueSpan; readonly createRevision: number; readonly modRevision: number } | undefined;
    });

/** A list of things plus the one buffer their values live in; `values` goes in the transfer list. */
export interface Packed<T> {
  readonly items: T[];
  readonly values: ArrayBuffer;
}

export function packOps(ops: readonly WriteOp[]): Packed<WireWriteOp> {
  const packer = new ValuePacker(ops.map((op) => (op.kind === 'delete' ? undefined : op.value)));
  const items = ops.map((op, i): WireWriteOp => ({
    kind: op.kind,
    key: op.key,
    expectedModRevision: op.kind === 'create' ? undefined : op.expectedModRevision,
    value: packer.spans[i],
  }));
  return { items, values: packer.buffer };
}

export function unpackOps(packed: Packed<WireWriteOp>): WriteOp[] {
  return packed.items.map((op): WriteOp => {
    const value = view(packed.values, op.value);
    switch (op.kind) {
      case 'create':
        return { kind: 'create', key: op.key, value };
      case 'update':
        return { kind: 'update', key: op.key, value, expectedModRevision: op.expectedModRevision ?? 0 };
      case 'delete':
        return { kind: 'delete', key: op.key, expectedModRevision: op.expectedModRevision };
    }
  });
}

export function packOutcomes(outcomes: readonly WriteOutcome[]): Packed<WireOutcome> {
  const packer = new ValuePacker(outcomes.map((o) => (o.ok ? o.prior?.value : undefined)));
  const items = outcomes.map((o, i): WireOutcome => {
    if (!o.ok || o.prior === undefined) return o as WireOutcome;
    return { ...o, prior: { ...o.prior, value: packer.spans[i]! } };
  });
  return { items, values: packer.buffer };
}

export function unpackOutcomes(packed: Packed<WireOutcome>): WriteOutcome[] {
  return packed.items.map((o): WriteOutcome => {
    if (!o.ok || o.prior === undefined) return o as WriteOutcome;
    return { ...o, prior: { ...o.prior, value: view(packed.values, o.prior.value) } };
  });
}

/** Copies byte arrays into one new ArrayBuffer, remembering where each went. */
class ValuePacker {
  readonly buffer: ArrayBuffer;
  readonly spans: Array<ValueSpan | undefined>;

  constructor(values: ReadonlyArray<Uint8Array | undefined>) {
    let total = 0;
    for (const v of values) total += v?.byteLength ?? 0;
    this.buffer = new ArrayBuffer(total);
    const target = new Uint8Array(this.buffer);
    let offset = 0;
    this.spans = values.map((v) => {
      if (v === undefined) return undefined;
      target.set(v, offset);
      const span: ValueSpan = [offset, offset + v.byteLength];
      offset += v.byteLength;
      return span;
    });
  }
}

function view(buffer: ArrayBuffer, span: ValueSpan | undefined): Uint8Array {
  return span === undefined ? NO_VALUE : new Uint8Array(buffer, span[0], span[1] - span[0]);
}
