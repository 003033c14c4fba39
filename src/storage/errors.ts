/**
 * The one error type the storage layer throws. The API layer maps each code to a Status in one
 * place (src/api/errors); nothing else inspects storage failures.
 */
export type StorageErrorCode =
  | 'key-exists'
  | 'not-found'
  | 'conflict'
  /** The revision asked for was compacted away. */
  | 'compacted'
  /** The revision asked for is newer than the store's (upstream: "too large resource version"). */
  | 'future-revision'
  /** The store cannot be reached or answered with an error that may pass. */
  | 'unavailable'
  /** A watcher fell too far behind and was closed. */
  | 'watcher-too-slow'
  /** The data directory or a stored value cannot be read. */
  | 'corrupt'
  /** A request the storage cannot serve as asked (a bad argument). */
  | 'invalid';

export class StorageError extends Error {
  override readonly name = 'StorageError';

  constructor(
    readonly code: StorageErrorCode,
    message: string,
    /** The key concerned, when there is one. */
    readonly key?: string,
    /** For 'compacted' and 'future-revision': the revision that bounds what can be read. */
    readonly revision?: number,
    options?: { cause?: unknown; requestedRevision?: number; corruptValues?: readonly CorruptValueError[] },
  ) {
    super(message, options);
    this.requestedRevision = options?.requestedRevision;
    this.corruptValues = options?.corruptValues;
  }

  /** For 'compacted' and 'future-revision': the revision that was asked for. */
  readonly requestedRevision: number | undefined;
  /** For a 'corrupt' list: each undecodable value it met, in key order. */
  readonly corruptValues: readonly CorruptValueError[] | undefined;
}

/** One value a list could not decode: where, at which revision, and why. */
export interface CorruptValueError {
  readonly key: string;
  readonly revision: number;
  /** The decoder's own words. */
  readonly reason: string;
}

export function keyExists(key: string): StorageError {
  return new StorageError('key-exists', `storage: key exists: ${key}`, key);
}

export function keyNotFound(key: string): StorageError {
  return new StorageError('not-found', `storage: key not found: ${key}`, key);
}

export function conflict(key: string, expected: number, actual: number): StorageError {
  return new StorageError(
    'conflict',
    `storage: ${key} was modified at revision ${actual}, expected ${expected}`,
    key,
    actual,
  );
}

/** `compactedAt` is the oldest revision still readable. */
export function compacted(requested: number, compactedAt: number): StorageError {
  return new StorageError(
    'compacted',
    `storage: required revision ${requested} has been compacted (oldest available: ${compactedAt})`,
    undefined,
    compactedAt,
    { requestedRevision: requested },
  );
}

export function futureRevision(requested: number, current: number): StorageError {
  return new StorageError(
    'future-revision',
    `storage: required revision ${requested} is a future revision (current: ${current})`,
    undefined,
    current,
    { requestedRevision: requested },
  );
}

/** A request the contract does not allow (bad key range, option out of range ...). */
export function invalid(message: string, cause?: unknown): StorageError {
  return new StorageError('invalid', `storage: ${message}`, undefined, undefined, cause === undefined ? undefined : { cause });
}

export function unavailable(message: string, cause?: unknown): StorageError {
  return new StorageError('unavailable', `storage: unavailable: ${message}`, undefined, undefined, { cause });
}

export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}
