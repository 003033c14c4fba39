/**
 * Entry point of the writer thread: hosts a WriterCore and answers WorkerWriteExecutor's requests
 * one at a time, in arrival order (the port delivers them in order and each runs to completion).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { StorageError } from '../errors.js';
import { WriterCore } from './writer-core.js';
import type { ReplyMessage, RequestMessage, SerializedError, StartupMessage, WriterRequest, WriterWorkerData } from './writer-protocol.js';

function serialize(err: unknown): SerializedError {
  if (err instanceof StorageError) return { code: err.code, message: err.message };
  return { code: 'unavailable', message: `storage: unavailable: writer thread: ${err instanceof Error ? err.message : String(err)}` };
}

function handle(core: WriterCore, request: WriterRequest): unknown {
  switch (request.kind) {
    case 'write':
      return core.write(request.ops);
    case 'record-compaction':
      return core.recordCompactedRevision(request.revision);
    case 'compact-chunk':
      return core.compactChunk(request.upTo);
    case 'ping':
      return core.ping();
    case 'close':
      return core.close();
  }
}

function serve(): void {
  const port = parentPort;
  if (port === null) throw new Error('writer-worker.js must run as a worker thread');
  const { stateFile, settings } = workerData as WriterWorkerData;
  let core: WriterCore;
  try {
    core = new WriterCore(stateFile, settings);
  } catch (err) {
    port.postMessage({ kind: 'failed', error: serialize(err) } satisfies StartupMessage);
    return;
  }
  port.postMessage({ kind: 'ready' } satisfies StartupMessage);
  port.on('message', ({ id, request }: RequestMessage) => {
    let reply: ReplyMessage;
    try {
      reply = { id, ok: true, result: handle(core, request) };
    } catch (err) {
      reply = { id, ok: false, error: serialize(err) };
    }
    port.postMessage(reply);
    if (request.kind === 'close') port.close();
  });
}

serve();
