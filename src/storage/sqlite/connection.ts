/**
 * Opening SQLite connections to the state file with the settings durability depends on.
 *
 * The writer runs in WAL mode with synchronous=FULL: a commit returns only after the WAL was
 * fsynced, so an acknowledged write survives kill -9 and power loss. Readers use their own
 * connection and see the last committed state without blocking the writer.
 */
import Database from 'better-sqlite3';
import type { Database as Connection } from 'better-sqlite3';
import { createSchema, corruptFile, inspectSchema } from './schema.js';
import { sqliteCode, toStorageError } from './sqlite-errors.js';

/**
 * SQLite's page cache per connection (KiB). better-sqlite3 builds SQLite with 16 MiB per
 * connection, which stays resident once filled. The watch cache serves reads from memory, so the
 * reader needs little (a list straight from the store larger than its cache reads pages from the
 * OS cache again: 10,000 objects in ~40 instead of ~30 ms), and the writer mostly the index pages
 * on the path of its inserts (no change in writes/s). With 100,000 objects the two connections
 * held ~25 MiB between them at the default: resident memory after loading 273 -> 258 MiB.
 */
const READER_PAGE_CACHE_KIB = 4096;
const WRITER_PAGE_CACHE_KIB = 4096;

/** Tuning of the writer connection; every field has a default in sqlite-options.ts. */
export interface WriterSettings {
  /** How long to wait for a lock held by a reader (only WAL checkpoints wait for readers). */
  readonly busyTimeoutMs: number;
  /** Pages in the WAL after which a commit runs a passive checkpoint (SQLite's autocheckpoint). */
  readonly walAutocheckpointPages: number;
  /** Size the WAL file is cut back to after a checkpoint reset it. */
  readonly walSizeLimitBytes: number;
}

/**
 * Opens the state file for the first time in this process: refuses a file that is not ours with
 * StorageError('corrupt') before anything is written to it, creates the schema in a new file, and
 * switches it to WAL mode. The returned connection is made read-only and serves the reads.
 */
export function openReaderConnection(file: string, busyTimeoutMs: number): Connection {
  let db: Connection | undefined;
  try {
    db = new Database(file, { timeout: busyTimeoutMs });
    if (inspectSchema(db, file) === 'empty') createSchema(db);
    db.pragma('journal_mode = WAL');
    db.pragma('query_only = 1');
    db.pragma(`cache_size = -${READER_PAGE_CACHE_KIB}`);
    return db;
  } catch (err) {
    db?.close();
    throw asOpenError(err, file);
  }
}

/** Opens the connection that performs every write; the schema must already exist. */
export function openWriterConnection(file: string, settings: WriterSettings): Connection {
  let db: Connection | undefined;
  try {
    db = new Database(file, { timeout: settings.busyTimeoutMs, fileMustExist: true });
    inspectSchema(db, file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma(`wal_autocheckpoint = ${settings.walAutocheckpointPages}`);
    db.pragma(`journal_size_limit = ${settings.walSizeLimitBytes}`);
    db.pragma(`cache_size = -${WRITER_PAGE_CACHE_KIB}`);
    return db;
  } catch (err) {
    db?.close();
    throw asOpenError(err, file);
  }
}

/** Conditions that may pass, as opposed to a file that is not a usable database. */
const TRANSIENT_OPEN_FAILURES = ['SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_NOMEM'];

function asOpenError(err: unknown, file: string): Error {
  const code = sqliteCode(err);
  if (code === undefined) return err instanceof Error ? err : new Error(String(err));
  if (TRANSIENT_OPEN_FAILURES.some((transient) => code.startsWith(transient))) return toStorageError(err, `opening ${file}`);
  return corruptFile(file, `it cannot be opened as a SQLite database (${(err as Error).message})`, err);
}

/** Opens a plain connection to an existing state file, for housekeeping such as checkpoints. */
export function openMaintenanceConnection(file: string): Connection {
  try {
    return new Database(file, { fileMustExist: true });
  } catch (err) {
    throw asOpenError(err, file);
  }
}
