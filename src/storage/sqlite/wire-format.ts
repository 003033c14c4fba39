/**
 * How write batches and their outcomes cross to and from the writer thread.
 *
 * Structured clone is slow per object: a batch sent as one small object per write cost ~7 µs of
 * CPU per write across the two threads, more than the SQL insert. So a batch crosses as three
 * things whatever its size: the numbers of every write in one Float64Array (a fixed number of
 * slots each), their keys as one string, and their values as one ArrayBuffer that is transferred
 * (moved, not copied). Values are packed rather than sent one by one because structured clone
 * copies a Uint8Array with its whole backing buffer, and small Buffers share 8 KiB pool slabs.
 */
import { NO_VALUE } from '../storage.js';
import type { RejectedWrite, WriteOp, WriteOutcome } from './write-ops.js';

/** A batch of ops or of outcomes as it crosses; `values` goes in the transfer list. */
export interface Packed {
  /** `slots` numbers per item, laid out as described at OP_SLOTS and OUTCOME_SLOTS. */
  readonly numbers: Float64Array;
  /** The items' keys end to end (ops only; their lengths are in `numbers`). */
  readonly keys: string;
  readonly values: ArrayBuffer;
}

/** Absent numbers (no expected revision, no value) are NaN. */
const NONE = Number.NaN;

const OP_KINDS: readonly WriteOp['kind'][] = ['create', 'update', 'delete'];
/** Per op: kind, key length, expectedModRevision, value start, value end. */
const OP_SLOTS = 5;

const REJECTIONS: readonly RejectedWrite['reason'][] = ['key-exists', 'not-found', 'conflict'];
/** Marks an applied write in an outcome's first slot; a rejection has its reason's index there. */
const APPLIED = -1;
/**
 * Per outcome: APPLIED or the rejection's index; revision (actualModRevision when rejected);
 * createRevision; the prior value's start and end; the prior's createRevision and modRevision.
 */
const OUTCOME_SLOTS = 7;

export function packOps(ops: readonly WriteOp[]): Packed {
  const packer = new ValuePacker(ops.map((op) => (op.kind === 'delete' ? undefined : op.value)));
  const numbers = new Float64Array(ops.length * OP_SLOTS);
  let keys = '';
  ops.forEach((op, i) => {
    const at = i * OP_SLOTS;
    numbers[at] = OP_KINDS.indexOf(op.kind);
    numbers[at + 1] = op.key.length;
    numbers[at + 2] = op.kind === 'create' ? NONE : (op.expectedModRevision ?? NONE);
    packer.writeSpan(i, numbers, at + 3);
    keys += op.key;
  });
  return { numbers, keys, values: packer.buffer };
}

export function unpackOps(packed: Packed): WriteOp[] {
  const { numbers, keys, values } = packed;
  const ops: WriteOp[] = [];
  let keyAt = 0;
  for (let at = 0; at < numbers.length; at += OP_SLOTS) {
    const key = keys.slice(keyAt, (keyAt += numbers[at + 1]!));
    const expected = numbers[at + 2]!;
    const value = view(values, numbers, at + 3);
    switch (OP_KINDS[numbers[at]!]) {
      case 'create':
        ops.push({ kind: 'create', key, value });
        break;
      case 'update':
        ops.push({ kind: 'update', key, value, expectedModRevision: Number.isNaN(expected) ? 0 : expected });
        break;
      default:
        ops.push({ kind: 'delete', key, expectedModRevision: Number.isNaN(expected) ? undefined : expected });
    }
  }
  return ops;
}

export function packOutcomes(outcomes: readonly WriteOutcome[]): Packed {
  const packer = new ValuePacker(outcomes.map((o) => (o.ok ? o.prior?.value : undefined)));
  const numbers = new Float64Array(outcomes.length * OUTCOME_SLOTS).fill(NONE);
  outcomes.forEach((o, i) => {
    const at = i * OUTCOME_SLOTS;
    if (!o.ok) {
      numbers[at] = REJECTIONS.indexOf(o.reason);
      numbers[at + 1] = o.actualModRevision;
      return;
    }
    numbers[at] = APPLIED;
    numbers[at + 1] = o.revision;
    numbers[at + 2] = o.createRevision;
    packer.writeSpan(i, numbers, at + 3);
    if (o.prior !== undefined) {
      numbers[at + 5] = o.prior.createRevision;
      numbers[at + 6] = o.prior.modRevision;
    }
  });
  return { numbers, keys: '', values: packer.buffer };
}

export function unpackOutcomes(packed: Packed): WriteOutcome[] {
  const { numbers, values } = packed;
  const outcomes: WriteOutcome[] = [];
  for (let at = 0; at < numbers.length; at += OUTCOME_SLOTS) {
    const status = numbers[at]!;
    if (status !== APPLIED) {
      outcomes.push({ ok: false, reason: REJECTIONS[status]!, actualModRevision: numbers[at + 1]! });
      continue;
    }
    const prior = Number.isNaN(numbers[at + 3]!)
      ? undefined
      : { value: view(values, numbers, at + 3), createRevision: numbers[at + 5]!, modRevision: numbers[at + 6]! };
    outcomes.push({ ok: true, revision: numbers[at + 1]!, createRevision: numbers[at + 2]!, prior });
  }
  return outcomes;
}

/** Copies byte arrays into one new ArrayBuffer, remembering where each went. */
class ValuePacker {
  readonly buffer: ArrayBuffer;
  private readonly starts: number[] = [];

  constructor(private readonly values: ReadonlyArray<Uint8Array | undefined>) {
    let total = 0;
    for (const v of values) total += v?.byteLength ?? 0;
    this.buffer = new ArrayBuffer(total);
    const target = new Uint8Array(this.buffer);
    let offset = 0;
    for (const v of values) {
      this.starts.push(offset);
      if (v === undefined) continue;
      target.set(v, offset);
      offset += v.byteLength;
    }
  }

  /** Writes value i's [start, end) into numbers[at], numbers[at + 1] (NaN, NaN without a value). */
  writeSpan(i: number, numbers: Float64Array, at: number): void {
    const value = this.values[i];
    numbers[at] = value === undefined ? NONE : this.starts[i]!;
    numbers[at + 1] = value === undefined ? NONE : this.starts[i]! + value.byteLength;
  }
}

/** The value whose [start, end) is at numbers[at]; NO_VALUE when there is none. */
function view(buffer: ArrayBuffer, numbers: Float64Array, at: number): Uint8Array {
  const start = numbers[at]!;
  return Number.isNaN(start) ? NO_VALUE : new Uint8Array(buffer, start, numbers[at + 1]! - start);
}
