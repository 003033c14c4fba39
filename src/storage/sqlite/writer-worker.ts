/**
 * Entry point of the writer thread: hosts a WriterCore and answers WorkerWriteExecutor's requests
 * one at a time, in arrival order (the port delivers them in order and each runs to completion).
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { StorageError } from '../errors.js';
import { packOutcomes, unpackOps } from './wire-format.js';
import { WriterCore } from './writer-core.js';
import type { OpenMessage, ReplyMessage, RequestMessage, SerializedError, StartupMessage, WriterRequest } from './writer-protocol.js';

function serialize(err: unknown): SerializedError {
  if (err instanceof StorageError) return { code: err.code, message: err.message };
  return { code: 'unavailable', message: `storage: unavailable: writer thread: ${err instanceof Error ? err.message : String(err)}` };
}

/** Carries out one request; returns its result and the buffers to transfer with it. */
function handle(core: WriterCore, request: WriterRequest): { result: unknown; transfer?: ArrayBuffer[] } {
  switch (request.kind) {
    case 'write': {
      const packed = packOutcomes(core.write(unpackOps(request.batch)));
      return { result: packed, transfer: [packed.values] };
    }
    case 'record-compaction':
      return { result: core.recordCompactedRevision(request.revision) };
    case 'compact-chunk':
      return { result: core.compactChunk(request.upTo) };
    case 'ping':
      return { result: core.ping() };
    case 'close':
      return { result: core.close() };
  }
}

function serve(): void {
  const port = parentPort;
  if (port === null) throw new Error('writer-worker.js must run as a worker thread');
  // Booted ahead of need (see writer-thread.ts): the database comes with the first message.
  port.once('message', (open: OpenMessage) => {
    let core: WriterCore;
    try {
      core = new WriterCore(open.stateFile, open.settings);
    } catch (err) {
      port.postMessage({ kind: 'failed', error: serialize(err) } satisfies StartupMessage);
      return;
    }
    port.postMessage({ kind: 'ready' } satisfies StartupMessage);
    port.on('message', (message: RequestMessage) => answer(port, core, message));
  });
}

function answer(port: MessagePort, core: WriterCore, { id, request }: RequestMessage): void {
  let reply: ReplyMessage;
  let transfer: ArrayBuffer[] = [];
  try {
    const handled = handle(core, request);
    reply = { id, ok: true, result: handled.result };
    transfer = handled.transfer ?? [];
  } catch (err) {
    reply = { id, ok: false, error: serialize(err) };
  }
  port.postMessage(reply, transfer);
  if (request.kind === 'close') port.close();
}

serve();
