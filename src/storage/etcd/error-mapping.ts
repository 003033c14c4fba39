/**
 * Translates what the etcd3 client throws into the storage contract's StorageError. This is the
 * only place that reads etcd's error texts.
 */
import {
  ClientClosedError,
  GRPCCancelledError,
  GRPCDeadlineExceededError,
  GRPCResourceExhastedError,
  GRPCUnavailableError,
} from 'etcd3';
import { StorageError, compacted, futureRevision, invalid, isStorageError, unavailable } from '../errors.js';

/** etcd's sentinel texts (server/storage/mvcc ErrCompacted, ErrFutureRev). */
const COMPACTED_TEXT = 'required revision has been compacted';
const FUTURE_REVISION_TEXT = 'required revision is a future revision';
const TOO_LARGE_TEXTS = ['request is too large', 'larger than max'];

export type EtcdFailureKind = 'compacted' | 'future-revision' | 'too-large' | 'unreachable' | 'failed';

/** What kind of failure an error from the etcd3 client is. */
export function classifyEtcdError(err: unknown): EtcdFailureKind {
  const message = err instanceof Error ? err.message : String(err);
  if (message.includes(COMPACTED_TEXT)) return 'compacted';
  if (message.includes(FUTURE_REVISION_TEXT)) return 'future-revision';
  if (err instanceof GRPCResourceExhastedError || TOO_LARGE_TEXTS.some((t) => message.includes(t))) return 'too-large';
  if (
    err instanceof GRPCUnavailableError ||
    err instanceof GRPCDeadlineExceededError ||
    err instanceof GRPCCancelledError ||
    err instanceof ClientClosedError ||
    // cockatiel's error while a member's circuit breaker is open (etcd3 re-throws it untyped).
    (err instanceof Error && err.name === 'BrokenCircuitError')
  ) {
    return 'unreachable';
  }
  return 'failed';
}

/** What the mapper needs to know about the failed operation. */
export interface FailureContext {
  /** The servers, for messages ("cannot reach etcd at ..."). */
  readonly servers: string;
  /** The operation, for messages ("get /registry/pods/a"). */
  readonly operation: string;
  /** The revision the operation asked for, for 'compacted' and 'future-revision'. */
  readonly requestedRevision?: number;
  /**
   * For 'compacted': the oldest readable revision; for 'future-revision': the current one. The
   * caller looks it up, since etcd's error does not say.
   */
  readonly boundRevision?: number;
}

/**
 * The StorageError for an error from the etcd3 client. A StorageError passes through unchanged.
 * Unknown failures become 'unavailable', the code for "may pass, try again".
 */
export function toStorageError(err: unknown, context: FailureContext): StorageError {
  if (isStorageError(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  const requested = context.requestedRevision ?? 0;
  switch (classifyEtcdError(err)) {
    case 'compacted':
      return compacted(requested, context.boundRevision ?? requested + 1);
    case 'future-revision':
      return futureRevision(requested, context.boundRevision ?? requested - 1);
    case 'too-large':
      return invalid(`etcd refused ${context.operation}: ${message}`, err);
    case 'unreachable':
      return unavailable(`cannot reach etcd at ${context.servers} (${context.operation}): ${message}`, err);
    case 'failed':
      return unavailable(`etcd at ${context.servers} failed ${context.operation}: ${message}`, err);
  }
}
