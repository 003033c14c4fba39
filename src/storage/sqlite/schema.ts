/**
 * The database schema and how an existing file is recognised as ours.
 *
 * One table holds every revision of every key, the way etcd's MVCC store does:
 *
 *   revision | key  | created | deleted | prev_revision | value
 *   ---------+------+---------+---------+---------------+------
 *          7 | /a   |       7 |       0 |             0 | v1     create
 *          9 | /a   |       7 |       0 |             7 | v2     update (prev: row 7)
 *         12 | /a   |       7 |       1 |             9 | ''     delete (prev: row 9)
 *
 * `revision` is an AUTOINCREMENT rowid, so SQLite's sqlite_sequence remembers the highest revision
 * ever used even after compaction deleted those rows: the revision never goes back. The index on
 * (key, revision, deleted) answers "the latest row of a key at revision R" and prefix ranges, and
 * covers the liveness checks of a list so that only the rows returned are read from the table; the
 * rowid itself answers "everything after revision R" for watch replay. `prev_revision` links a row to the
 * value it replaced, which is a watch event's prevKv and what compaction deletes.
 */
import type { Database } from 'better-sqlite3';
import { StorageError } from '../errors.js';

/** Bumped whenever the layout changes; a newer file is refused rather than misread. */
export const SCHEMA_VERSION = 1;

/** 'Cpst' in PRAGMA application_id: marks the file as a Capstan store. */
export const APPLICATION_ID = 0x43707374;

/** Names of the durable counters in the meta table. */
export const META = {
  schemaVersion: 'schema_version',
  /** The compacted revision: reads and watches below it fail with 'compacted'. */
  compactedRevision: 'compacted_revision',
  /** Superseded rows up to this revision have been deleted (at most compacted_revision). */
  compactionDone: 'compaction_done',
} as const;

const CREATE_SCHEMA = `
  CREATE TABLE kv (
    revision INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    created INTEGER NOT NULL,
    deleted INTEGER NOT NULL,
    prev_revision INTEGER NOT NULL,
    value BLOB NOT NULL
  );
  CREATE INDEX kv_key_revision ON kv (key, revision, deleted);
  CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
`;

/**
 * Creates the schema in an empty database, in one transaction, stamped with our application id
 * and schema version.
 */
export function createSchema(db: Database): void {
  db.transaction(() => {
    db.exec(CREATE_SCHEMA);
    const put = db.prepare('INSERT INTO meta (name, value) VALUES (?, ?)');
    put.run(META.schemaVersion, SCHEMA_VERSION);
    put.run(META.compactedRevision, 0);
    put.run(META.compactionDone, 0);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/** What an existing database file turned out to be. */
export type SchemaState = 'empty' | 'current';

/**
 * Tells an empty database from one of ours; anything else (another application's database, a
 * newer schema, a half-made one) throws StorageError('corrupt') naming the file. Reads only.
 */
export function inspectSchema(db: Database, file: string): SchemaState {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
  if (applicationId === 0 && tables.length === 0) return 'empty';
  if (applicationId !== APPLICATION_ID) {
    throw corruptFile(file, `it is a SQLite database of another application (application_id ${applicationId}, tables: ${tables.join(', ') || 'none'})`);
  }
  if (!tables.includes('kv') || !tables.includes('meta')) {
    throw corruptFile(file, `its tables are incomplete (found: ${tables.join(', ') || 'none'})`);
  }
  const version = db.prepare('SELECT value FROM meta WHERE name = ?').pluck().get(META.schemaVersion) as number | undefined;
  if (version !== SCHEMA_VERSION) {
    throw corruptFile(file, `its schema version is ${version ?? 'missing'}, this server reads version ${SCHEMA_VERSION}`);
  }
  return 'current';
}

/** The error for a data file that cannot be used; nothing was written to it. */
export function corruptFile(file: string, why: string, cause?: unknown): StorageError {
  return new StorageError('corrupt', `storage: cannot use ${file}: ${why}`, undefined, undefined, { cause });
}
