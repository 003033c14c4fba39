/**
 * Conversions from etcd3's wire shapes (int64 fields arrive as decimal strings) to the contract's.
 */
import type { IKeyValue, IResponseHeader } from 'etcd3';
import type { KeyValue } from '../storage.js';

/** An etcd key-value pair as the contract's KeyValue; the value Buffer is shared, not copied. */
export function toKeyValue(kv: IKeyValue): KeyValue {
  return {
    key: kv.key.toString('utf8'),
    value: kv.value,
    createRevision: Number(kv.create_revision),
    modRevision: Number(kv.mod_revision),
  };
}

/**
 * The store revision a response was served at. Revisions are int64 on the wire; they stay far
 * below 2^53 (a million writes a second would need three centuries), so a number is exact.
 */
export function headerRevision(header: IResponseHeader | undefined): number {
  return Number(header?.revision ?? 0);
}
