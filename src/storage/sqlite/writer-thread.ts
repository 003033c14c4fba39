/**
 * The writer thread's Worker, which can be started before the store opens. A worker thread takes
 * some 40-50 ms to boot on a small VM before its first line runs; started when the store opened,
 * the main thread sat idle for most of that at every restart. So the entry point may call
 * prestartWriterThread() before the server's own code loads (the launcher does), and the store
 * takes that thread when it opens. The hand-off goes through a process-wide symbol because the
 * launcher and the server are separate bundles, each with its own copy of this module.
 *
 * The thread boots without a database: the store sends it an OpenMessage (writer-protocol.ts).
 * A prestarted thread never holds the process open, and one that no store takes stays idle.
 */
import { Worker } from 'node:worker_threads';

const WORKER_URL = new URL('./writer-worker.js', import.meta.url);
const PRESTARTED = Symbol.for('capstan.sqlite.prestartedWriterThread');

interface Prestarted {
  readonly worker: Worker;
  /** Set when the thread failed or exited before a store took it. */
  failed: boolean;
  readonly onGone: () => void;
}

type Holder = { [PRESTARTED]?: Prestarted };

/** Starts the writer thread now, unless one was started already; it waits for a store to take it. */
export function prestartWriterThread(): void {
  const holder = globalThis as Holder;
  if (holder[PRESTARTED] !== undefined) return;
  const worker = new Worker(WORKER_URL);
  const entry: Prestarted = {
    worker,
    failed: false,
    // An 'error' with no listener would be thrown: until a store takes the thread, it only marks it unusable.
    onGone: () => {
      entry.failed = true;
    },
  };
  worker.on('error', entry.onGone);
  worker.on('exit', entry.onGone);
  worker.unref();
  holder[PRESTARTED] = entry;
}

/** The prestarted writer thread if there is a usable one, else a new one. */
export function startWriterThread(): Worker {
  return takePrestarted() ?? new Worker(WORKER_URL);
}

/** Stops a prestarted writer thread that no store will take (the store is etcd, or writes inline). */
export function discardPrestartedWriterThread(): void {
  void takePrestarted()?.terminate();
}

function takePrestarted(): Worker | undefined {
  const holder = globalThis as Holder;
  const entry = holder[PRESTARTED];
  if (entry === undefined) return undefined;
  delete holder[PRESTARTED];
  entry.worker.off('error', entry.onGone);
  entry.worker.off('exit', entry.onGone);
  if (!entry.failed) return entry.worker;
  void entry.worker.terminate();
  return undefined;
}
