/** Turning the writer's outcomes into what callers and watchers receive. */
import { conflict, keyExists, keyNotFound, type StorageError } from '../errors.js';
import { deletedKeyValue, type KeyValue, type WatchEvent, type WriteResult } from '../storage.js';
import type { AppliedWrite, RejectedWrite, WriteOp } from './write-ops.js';

/** A committed write as its caller and the watchers see it. */
export interface CommittedWrite {
  readonly result: WriteResult;
  readonly event: WatchEvent;
}

/** Builds the write's result and its watch event; shares the value bytes, copies nothing. */
export function describeCommitted(op: WriteOp, applied: AppliedWrite): CommittedWrite {
  const prevKv: KeyValue | undefined = applied.prior === undefined ? undefined : { key: op.key, ...applied.prior };
  if (op.kind === 'delete') {
    const kv = deletedKeyValue(op.key, applied.revision);
    return { result: { revision: applied.revision, kv: prevKv ?? kv }, event: { type: 'delete', kv, prevKv } };
  }
  const kv: KeyValue = { key: op.key, value: op.value, createRevision: applied.createRevision, modRevision: applied.revision };
  return { result: { revision: applied.revision, kv }, event: { type: 'put', kv, prevKv } };
}

/** The error a write whose precondition failed is rejected with. */
export function rejectionError(op: WriteOp, rejected: RejectedWrite): StorageError {
  switch (rejected.reason) {
    case 'key-exists':
      return keyExists(op.key);
    case 'not-found':
      return keyNotFound(op.key);
    case 'conflict':
      return conflict(op.key, op.kind === 'create' ? 0 : (op.expectedModRevision ?? 0), rejected.actualModRevision);
  }
}
