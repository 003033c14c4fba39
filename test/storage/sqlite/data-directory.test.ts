/**
 * Opening a data directory: created when missing; refused, without being touched, when its state
 * file is not a Capstan database; locked against a second opener.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { isStorageError, type StorageError } from '../../../src/storage/errors.js';
import { SCHEMA_VERSION } from '../../../src/storage/sqlite/schema.js';
import { SqliteStorage } from '../../../src/storage/sqlite/sqlite-storage.js';
import { bytes, tempDir } from './temp-store.js';

async function openError(dataDir: string): Promise<StorageError> {
  try {
    const store = await SqliteStorage.open({ dataDir, writer: 'inline' });
    await store.close();
  } catch (err) {
    assert.ok(isStorageError(err), `expected a StorageError, got ${String(err)}`);
    return err;
  }
  assert.fail('open succeeded');
}

async function digest(file: string): Promise<string> {
  return createHash('sha256').update(await readFile(file)).digest('hex');
}

describe('SqliteStorage data directory', () => {
  it('creates a missing directory and records the schema version', async () => {
    const root = await tempDir();
    const dataDir = join(root, 'nested', 'data');
    try {
      const store = await SqliteStorage.open({ dataDir });
      await store.create('/a', bytes('x'));
      await store.close();
      const db = new Database(join(dataDir, 'state.db'), { readonly: true });
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      assert.equal(db.prepare("SELECT value FROM meta WHERE name = 'schema_version'").pluck().get(), SCHEMA_VERSION);
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      db.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  const foreignFiles: ReadonlyArray<{ name: string; make: (file: string) => Promise<void>; mentions: RegExp }> = [
    { name: 'a text file', make: (file) => writeFile(file, 'these are my notes, not a database\n'.repeat(20)), mentions: /cannot be opened as a SQLite database/ },
    {
      name: 'a SQLite database of another application',
      make: async (file) => {
        const db = new Database(file);
        db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('ada')");
        db.close();
      },
      mentions: /another application/,
    },
    {
      name: 'a Capstan database of a newer schema version',
      make: async (file) => {
        const store = await SqliteStorage.open({ dataDir: join(file, '..'), writer: 'inline' });
        await store.close();
        const db = new Database(file);
        db.prepare("UPDATE meta SET value = ? WHERE name = 'schema_version'").run(SCHEMA_VERSION + 1);
        db.close();
      },
      mentions: /schema version is 2/,
    },
    {
      name: 'a Capstan database whose pages are damaged',
      make: async (file) => {
        const store = await SqliteStorage.open({ dataDir: join(file, '..'), writer: 'inline' });
        for (let i = 0; i < 50; i++) await store.create(`/k${i}`, bytes('x'.repeat(1000)));
        await store.close();
        const damaged = await readFile(file);
        damaged.fill(0xab, 4096);
        await writeFile(file, damaged);
      },
      mentions: /malformed|not a database/,
    },
  ];
  for (const c of foreignFiles) {
    it(`refuses ${c.name} with 'corrupt', naming the file, and leaves it untouched`, async () => {
      const dataDir = await tempDir();
      const file = join(dataDir, 'state.db');
      try {
        await c.make(file);
        const before = await digest(file);
        const filesBefore = await readdir(dataDir);
        const err = await openError(dataDir);
        assert.equal(err.code, 'corrupt');
        assert.ok(err.message.includes(file), err.message);
        assert.match(err.message, c.mentions);
        assert.equal(await digest(file), before, 'the file is unchanged');
        assert.deepEqual((await readdir(dataDir)).filter((f) => !f.startsWith('state.lock')), filesBefore.filter((f) => !f.startsWith('state.lock')));
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  }

  it("refuses a state file that is a directory with 'corrupt'", async () => {
    const dataDir = await tempDir();
    try {
      await mkdir(join(dataDir, 'state.db'));
      const err = await openError(dataDir);
      assert.equal(err.code, 'corrupt');
      assert.match(err.message, /not a regular file/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a second store on the same directory in this process, and keeps the first working', async () => {
    const dataDir = await tempDir();
    const first = await SqliteStorage.open({ dataDir });
    try {
      const err = await openError(dataDir);
      assert.equal(err.code, 'unavailable');
      assert.match(err.message, /in use/);
      assert.ok(err.message.includes(dataDir));
      await first.create('/still-works', bytes('x'));
      assert.equal((await openError(dataDir)).code, 'unavailable', 'the failed attempt did not release the lock');
      await first.close();
      const again = await SqliteStorage.open({ dataDir });
      assert.equal((await again.get('/still-works')).kv?.value.length, 1);
      await again.close();
    } finally {
      await first.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a second process on the same directory with a clear error', async () => {
    const dataDir = await tempDir();
    const store = await SqliteStorage.open({ dataDir });
    try {
      const moduleUrl = new URL('../../../src/storage/sqlite/sqlite-storage.js', import.meta.url).href;
      const program = `
        const { SqliteStorage } = await import(${JSON.stringify(moduleUrl)});
        try { await SqliteStorage.open({ dataDir: ${JSON.stringify(dataDir)} }); console.log('opened'); }
        catch (err) { console.log(err.code + ': ' + err.message); }`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', program]);
      assert.match(stdout, /^unavailable: storage: the data directory .* is in use/);
    } finally {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('is reported by path when the directory cannot be created', async () => {
    const root = await tempDir();
    try {
      await writeFile(join(root, 'file'), 'x');
      const err = await openError(join(root, 'file', 'data'));
      assert.equal(err.code, 'unavailable');
      assert.match(err.message, /cannot create the data directory/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

