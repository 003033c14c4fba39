/**
 * Durability under kill -9: a child process writes concurrently and reports every acknowledged
 * write; it is killed mid-write; the store reopened afterwards must hold every acknowledged write
 * with its exact value and nothing that was never completely written.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { verifyCrashValue } from './crash-values.js';

/** Acknowledged writes to wait for before the kill, so that it lands mid-stream. */
const ACKNOWLEDGED_BEFORE_KILL = 3000;
const CHILD_TIMEOUT_MS = 30_000;

/** Runs the writer child until it acknowledged enough, kills it; returns key -> highest acknowledged version. */
async function writeThenKill(dataDir: string, writer: 'worker' | 'inline'): Promise<Map<string, number>> {
  const script = fileURLToPath(new URL('./crash-writer.js', import.meta.url));
  const child = spawn(process.execPath, [script, dataDir, writer], { stdio: ['ignore', 'pipe', 'pipe'] });
  const acknowledged = new Map<string, number>();
  let count = 0;
  let partialLine = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const timeout = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (partialLine + chunk.toString()).split('\n');
    partialLine = lines.pop()!;
    for (const line of lines) {
      const [key, version] = line.split(' ');
      acknowledged.set(key!, Math.max(acknowledged.get(key!) ?? -1, Number(version)));
      if (++count === ACKNOWLEDGED_BEFORE_KILL) child.kill('SIGKILL');
    }
  });
  const signal = await exited;
  clearTimeout(timeout);
  assert.equal(signal, 'SIGKILL', `the writer was killed, not ended by itself (stderr: ${stderr})`);
  assert.ok(count >= ACKNOWLEDGED_BEFORE_KILL, `the writer acknowledged ${count} writes before it was killed (stderr: ${stderr})`);
  return acknowledged;
}

describe('crash: kill -9 during concurrent writes', () => {
  for (const writer of ['worker', 'inline'] as const) {
    it(`keeps every acknowledged write and no partial one (${writer} writer)`, async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'capstan-crash-'));
      try {
        const acknowledged = await writeThenKill(dataDir, writer);

        const check = new Database(join(dataDir, 'state.db'), { readonly: true });
        assert.equal(check.pragma('integrity_check', { simple: true }), 'ok');
        check.close();

        const store = await SqliteStorage.open({ dataDir, writer });
        try {
          const stored = new Map((await store.list('/crash/')).kvs.map((kv) => [kv.key, kv.value]));
          for (const [key, version] of acknowledged) {
            const value = stored.get(key);
            assert.ok(value !== undefined, `acknowledged key ${key} is missing`);
            const found = verifyCrashValue(key, value);
            // A write in flight at the kill may have committed without being acknowledged: the
            // update after an acknowledged create.
            assert.ok(found !== undefined && found >= version, `${key}: stored version ${found}, acknowledged ${version}`);
          }
          for (const [key, value] of stored) {
            assert.notEqual(verifyCrashValue(key, value), undefined, `${key} holds a value that was never written whole`);
          }
          const revision = await store.currentRevision();
          assert.ok((await store.create('/after-crash', new Uint8Array([1]))).revision > revision);
        } finally {
          await store.close();
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  }
});
