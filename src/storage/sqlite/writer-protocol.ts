/** The messages between WorkerWriteExecutor (main thread) and writer-worker.ts. */
import type { WriterSettings } from './connection.js';
import type { StorageErrorCode } from '../errors.js';
import type { Packed } from './wire-format.js';

/** The first message the worker receives: which database to open (it boots without one). */
export interface OpenMessage {
  readonly kind: 'open';
  readonly stateFile: string;
  readonly settings: WriterSettings;
}

export type WriterRequest =
  | { readonly kind: 'write'; readonly batch: Packed }
  | { readonly kind: 'record-compaction'; readonly revision: number }
  | { readonly kind: 'compact-chunk'; readonly upTo: number }
  | { readonly kind: 'ping' }
  | { readonly kind: 'close' };

export interface RequestMessage {
  readonly id: number;
  readonly request: WriterRequest;
}

/** A StorageError flattened for structured clone (which drops the class). */
export interface SerializedError {
  readonly code: StorageErrorCode;
  readonly message: string;
}

export type ReplyMessage =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: SerializedError };

/** The worker's answer to the OpenMessage: whether it opened the database. */
export type StartupMessage = { readonly kind: 'ready' } | { readonly kind: 'failed'; readonly error: SerializedError };
