/**
 * Runs the writer in a worker thread. The main thread only posts a batch and handles the reply,
 * so the commit's fsync and the SQL work overlap with request handling, reads and watch fan-out
 * on the main thread. Costs one copy of each batch's values each way (see wire-format.ts).
 *
 * The worker holds the event loop open only while a request is outstanding, so an idle store
 * does not keep the process alive (as with the inline executor).
 */
import type { Worker } from 'node:worker_threads';
import { StorageError, unavailable } from '../errors.js';
import type { WriterSettings } from './connection.js';
import { packOps, unpackOutcomes, type Packed } from './wire-format.js';
import type { WriteExecutor } from './write-executor.js';
import type { WriteOp, WriteOutcome } from './write-ops.js';
import type { OpenMessage, ReplyMessage, RequestMessage, SerializedError, StartupMessage, WriterRequest } from './writer-protocol.js';
import { startWriterThread } from './writer-thread.js';

interface Pending {
  readonly resolve: (result: unknown) => void;
  readonly reject: (err: StorageError) => void;
}

export class WorkerWriteExecutor implements WriteExecutor {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Set when the thread is gone; every later request fails with it. */
  private failure: StorageError | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: ReplyMessage) => this.settle(reply));
    worker.on('error', (err) => this.fail(unavailable('the writer thread failed', err)));
    worker.on('exit', (code) => this.fail(unavailable(`the writer thread exited (code ${code})`)));
    worker.unref();
  }

  /**
   * Starts the writer thread and waits until it has opened the database; rejects with the
   * StorageError it failed with ('corrupt' | 'unavailable').
   */
  static start(stateFile: string, settings: WriterSettings): Promise<WorkerWriteExecutor> {
    const worker = startWriterThread();
    // A prestarted thread holds no event loop open; this wait must (the instance unrefs it again).
    worker.ref();
    return new Promise((resolve, reject) => {
      const onExit = (code: number) => reject(unavailable(`the writer thread exited during startup (code ${code})`));
      worker.once('error', (err) => reject(unavailable('the writer thread failed to start', err)));
      worker.once('exit', onExit);
      worker.postMessage({ kind: 'open', stateFile, settings } satisfies OpenMessage);
      worker.once('message', (message: StartupMessage) => {
        worker.off('exit', onExit);
        if (message.kind === 'ready') {
          resolve(new WorkerWriteExecutor(worker));
        } else {
          reject(deserialize(message.error));
          void worker.terminate();
        }
      });
    });
  }

  async write(ops: readonly WriteOp[]): Promise<WriteOutcome[]> {
    const batch = packOps(ops);
    const outcomes = (await this.request({ kind: 'write', batch }, [batch.values])) as Packed;
    return unpackOutcomes(outcomes);
  }

  recordCompactedRevision(revision: number): Promise<void> {
    return this.request({ kind: 'record-compaction', revision }) as Promise<void>;
  }

  compactChunk(upTo: number): Promise<number> {
    return this.request({ kind: 'compact-chunk', upTo }) as Promise<number>;
  }

  ping(): Promise<void> {
    return this.request({ kind: 'ping' }) as Promise<void>;
  }

  async close(): Promise<void> {
    if (this.failure !== undefined) return;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    await this.request({ kind: 'close' });
    // Hold the event loop open until the thread is gone, so close() really resolves.
    this.worker.ref();
    await exited;
  }

  private request(request: WriterRequest, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ id, request } satisfies RequestMessage, transfer);
    });
  }

  private settle(reply: ReplyMessage): void {
    const waiting = this.pending.get(reply.id);
    if (waiting === undefined) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.ok) waiting.resolve(reply.result);
    else waiting.reject(deserialize(reply.error));
  }

  private fail(err: StorageError): void {
    this.failure ??= err;
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
  }
}

function deserialize(error: SerializedError): StorageError {
  return new StorageError(error.code, error.message);
}
