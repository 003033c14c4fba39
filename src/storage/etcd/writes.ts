/**
 * Conditional writes. Each is one etcd transaction whose compare is the precondition, so the check
 * and the write are atomic: `create` compares create_revision = 0 (absent), `update` and `delete`
 * compare create_revision > 0 (present) and, when given, mod_revision = expected. The failure
 * branch reads the key, so one round trip also tells 'not-found' from 'conflict'.
 */
import type { ICompare, ITxnResponse } from 'etcd3';
import { conflict, keyExists, keyNotFound } from '../errors.js';
import type { WriteResult } from '../storage.js';
import type { EtcdConnection } from './etcd-connection.js';
import { keyBytes } from './key-range.js';
import { toKeyValue } from './key-value.js';

const WRITE = { kind: 'write' } as const;

/** @throws StorageError 'key-exists' if the key is present; 'unavailable' when etcd cannot answer. */
export async function createKey(conn: EtcdConnection, key: string, value: Uint8Array): Promise<WriteResult> {
  const k = keyBytes(key);
  await conn.writesMayProceed();
  const response = await conn.call(`create ${key}`, () =>
    conn.kv.txn({
      compare: [{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }],
      success: [{ request_put: { key: k, value: asBuffer(value) } }],
    }),
    WRITE,
  );
  const revision = conn.noteHeader(response.header);
  if (!response.succeeded) throw keyExists(key);
  return { revision, kv: { key, value, createRevision: revision, modRevision: revision } };
}

/** @throws StorageError 'not-found', 'conflict' (with the key's modRevision), 'unavailable'. */
export async function updateKey(
  conn: EtcdConnection,
  key: string,
  value: Uint8Array,
  expectedModRevision: number,
): Promise<WriteResult> {
  const k = keyBytes(key);
  await conn.writesMayProceed();
  const response = await conn.call(`update ${key}`, () =>
    conn.kv.txn({
      compare: [exists(k), { key: k, target: 'Mod', result: 'Equal', mod_revision: expectedModRevision }],
      success: [{ request_put: { key: k, value: asBuffer(value), prev_kv: true } }],
      failure: [{ request_range: { key: k } }],
    }),
    WRITE,
  );
  const revision = conn.noteHeader(response.header);
  if (!response.succeeded) throw preconditionFailure(key, expectedModRevision, response);
  const previous = response.responses[0]?.response_put?.prev_kv;
  const createRevision = previous ? Number(previous.create_revision) : revision;
  return { revision, kv: { key, value, createRevision, modRevision: revision } };
}

/** @throws StorageError 'not-found', 'conflict' (when expectedModRevision is given), 'unavailable'. */
export async function deleteKey(conn: EtcdConnection, key: string, expectedModRevision?: number): Promise<WriteResult> {
  const k = keyBytes(key);
  const compare = [exists(k)];
  if (expectedModRevision !== undefined) compare.push({ key: k, target: 'Mod', result: 'Equal', mod_revision: expectedModRevision });
  await conn.writesMayProceed();
  const response = await conn.call(`delete ${key}`, () =>
    conn.kv.txn({
      compare,
      success: [{ request_delete_range: { key: k, prev_kv: true } }],
      failure: [{ request_range: { key: k } }],
    }),
    WRITE,
  );
  const revision = conn.noteHeader(response.header);
  if (!response.succeeded) throw preconditionFailure(key, expectedModRevision ?? 0, response);
  const previous = response.responses[0]?.response_delete_range?.prev_kvs[0];
  // The compare guarantees the key existed inside the transaction, so etcd returns its old value.
  if (previous === undefined) throw keyNotFound(key);
  return { revision, kv: toKeyValue(previous) };
}

/** The key is present: its create_revision is above 0 (etcd compares an absent key as all zeros). */
function exists(key: Buffer): ICompare {
  return { key, target: 'Create', result: 'Greater', create_revision: 0 };
}

/** What a failed compare means, from the failure branch's read of the key. */
function preconditionFailure(key: string, expected: number, response: ITxnResponse): Error {
  const current = response.responses[0]?.response_range?.kvs[0];
  return current === undefined ? keyNotFound(key) : conflict(key, expected, Number(current.mod_revision));
}

/** etcd3 encodes Buffers; a plain Uint8Array is wrapped without copying. */
function asBuffer(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}
