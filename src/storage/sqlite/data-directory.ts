/**
 * The data directory: where the state file lives, and the lock that keeps a second process (or a
 * second SqliteStorage in this process) from opening it at the same time.
 *
 * The lock is a small SQLite database held in EXCLUSIVE locking mode. SQLite takes a POSIX lock on
 * it that the kernel drops when the process dies, even by kill -9, so a crash never leaves a stale
 * lock behind; and SQLite tracks locks per file inside the process, so a second open in the same
 * process is refused too.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Database as Connection } from 'better-sqlite3';
import { StorageError } from '../errors.js';
import { corruptFile } from './schema.js';
import { sqliteCode } from './sqlite-errors.js';

/** The file names inside the data directory. */
export const STATE_FILE = 'state.db';
export const LOCK_FILE = 'state.lock';

/** A data directory this process holds the lock of. */
export interface ClaimedDirectory {
  readonly path: string;
  readonly stateFile: string;
  /** Releases the lock; idempotent. */
  release(): void;
}

/**
 * Creates the directory if missing and takes its lock. Throws StorageError('unavailable') when
 * another process (or another store in this process) holds it or the directory cannot be made,
 * and StorageError('corrupt') when the state file exists but is not a regular file.
 */
export function claimDataDirectory(path: string): ClaimedDirectory {
  try {
    mkdirSync(path, { recursive: true });
  } catch (err) {
    throw new StorageError('unavailable', `storage: cannot create the data directory ${path}: ${(err as Error).message}`, undefined, undefined, { cause: err });
  }
  const stateFile = join(path, STATE_FILE);
  const lock = takeLock(path, join(path, LOCK_FILE));
  try {
    refuseNonRegularFile(stateFile);
  } catch (err) {
    lock.close();
    throw err;
  }
  return {
    path,
    stateFile,
    release: () => {
      if (lock.open) lock.close();
    },
  };
}

/**
 * Makes the directory entries of newly created files durable: a new state file must not vanish
 * with a power loss after its first acknowledged write.
 */
export function syncDirectory(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function takeLock(directory: string, lockFile: string): Connection {
  let db: Connection | undefined;
  try {
    db = new Database(lockFile, { timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
    // An empty write transaction takes the exclusive lock; EXCLUSIVE mode keeps it after commit.
    db.exec('BEGIN EXCLUSIVE; COMMIT');
    return db;
  } catch (err) {
    // Close explicitly: a connection left to the garbage collector could drop the lock a live
    // store in this process holds on the same file.
    db?.close();
    if (sqliteCode(err)?.startsWith('SQLITE_BUSY')) {
      throw new StorageError(
        'unavailable',
        `storage: the data directory ${directory} is in use by another process or store (${lockFile} is locked)`,
        undefined,
        undefined,
        { cause: err },
      );
    }
    throw corruptFile(lockFile, `the lock file cannot be used (${(err as Error).message})`, err);
  }
}

function refuseNonRegularFile(stateFile: string): void {
  let isFile: boolean;
  try {
    isFile = statSync(stateFile).isFile();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw corruptFile(stateFile, (err as Error).message, err);
  }
  if (!isFile) throw corruptFile(stateFile, 'it is not a regular file');
}
