/**
 * The child process of the crash test. Opens a SqliteStorage in the data directory given as the
 * first argument (writer mode second), then writes until it is killed: concurrent writers each
 * create a key and update it once, over and over, while the store is compacted now and then. After
 * each acknowledged write it prints `<key> <version>` on stdout, so the parent knows exactly what
 * was acknowledged when it sends SIGKILL.
 */
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { crashValue } from './crash-values.js';

const WRITERS = 32;

async function main(): Promise<void> {
  const [dataDir, writer] = process.argv.slice(2);
  if (dataDir === undefined || (writer !== 'worker' && writer !== 'inline')) {
    throw new Error('usage: crash-writer.js <data-dir> <worker|inline>');
  }
  const store = await SqliteStorage.open({ dataDir, writer, compactionChunkRevisions: 50 });
  const acknowledge = (key: string, version: number) => process.stdout.write(`${key} ${version}\n`);
  setInterval(() => {
    void store.currentRevision().then((current) => store.compact(Math.max(0, current - 300))).catch(() => {});
  }, 50);
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; ; i++) {
        const key = `/crash/w${w}/k${i}`;
        const created = await store.create(key, crashValue(key, 0));
        acknowledge(key, 0);
        await store.update(key, crashValue(key, 1), created.revision);
        acknowledge(key, 1);
      }
    }),
  );
}

main().catch((err) => {
  process.stderr.write(`crash-writer: ${String(err)}\n`);
  process.exit(1);
});
