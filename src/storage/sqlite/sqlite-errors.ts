/**
 * Translation of SQLite failures into StorageErrors, in one place. SQLite reports damage to the
 * file (corrupt pages, a file that is not a database) differently from conditions that may pass
 * (a full disk, an I/O error, a lock held too long); callers need to know which is which.
 */
import { StorageError } from '../errors.js';

const CORRUPTION_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_INDEX', 'SQLITE_CORRUPT_SEQUENCE', 'SQLITE_CORRUPT_VTAB']);

/** Returns `err` if it is already a StorageError, else wraps it as 'corrupt' or 'unavailable'. */
export function toStorageError(err: unknown, doing: string): StorageError {
  if (err instanceof StorageError) return err;
  const code = sqliteCode(err);
  const detail = err instanceof Error ? err.message : String(err);
  if (code !== undefined && CORRUPTION_CODES.has(code)) {
    return new StorageError('corrupt', `storage: ${doing}: the database is damaged: ${detail}`, undefined, undefined, { cause: err });
  }
  return new StorageError('unavailable', `storage: unavailable: ${doing}: ${detail}`, undefined, undefined, { cause: err });
}

/** The SQLite result code name of a better-sqlite3 error ('SQLITE_BUSY', ...), if it is one. */
export function sqliteCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}
