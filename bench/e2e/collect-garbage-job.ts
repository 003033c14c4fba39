/**
 * Forces full garbage collections in the server through its inspector, so that resident memory is
 * read at a GC-settled moment rather than with whatever garbage the load left behind.
 */
import type { CollectGarbageJob } from './jobs.js';

/** Bounds the wait for the inspector's answers. */
const TIMEOUT_MS = 30_000;

interface InspectorSocket {
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(): void;
}

export async function collectGarbage(job: CollectGarbageJob): Promise<void> {
  // Node 20 has WebSocket behind --experimental-websocket (the load generator runs with it).
  const WebSocketClass = (globalThis as unknown as { WebSocket?: new (url: string) => InspectorSocket }).WebSocket;
  if (!WebSocketClass) throw new Error('no WebSocket in this Node (needs --experimental-websocket)');
  const socket = new WebSocketClass(job.inspectorUrl);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer from the inspector at ${job.inspectorUrl}`)), TIMEOUT_MS);
      let answered = 0;
      socket.onerror = () => {
        clearTimeout(timer);
        reject(new Error(`inspector connection to ${job.inspectorUrl} failed`));
      };
      socket.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as { id?: number; error?: { message: string } };
        if (message.id === undefined) return; // an inspector notification
        if (message.error) return reject(new Error(`HeapProfiler.collectGarbage: ${message.error.message}`));
        if (++answered < job.times) return socket.send(JSON.stringify({ id: answered + 1, method: 'HeapProfiler.collectGarbage' }));
        clearTimeout(timer);
        resolve();
      };
      socket.onopen = () => socket.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
    });
  } finally {
    socket.close();
  }
}
