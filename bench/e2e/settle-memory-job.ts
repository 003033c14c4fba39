/**
 * Settles the server's memory through its inspector: forced full garbage collections (so resident
 * memory is read at a GC-settled moment, not with the garbage the load left behind), then the
 * process's own view of where its memory is (`process.memoryUsage()`: V8 heap, external buffers).
 */
import type { SettleMemoryJob, SettledMemory } from './jobs.js';

/** Bounds the wait for each of the inspector's answers. */
const TIMEOUT_MS = 30_000;

interface InspectorSocket {
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(): void;
}

interface InspectorReply {
  readonly id?: number;
  readonly result?: { result?: { value?: unknown } };
  readonly error?: { message: string };
}

/** One inspector session: numbered requests, each resolved by the reply with its id. */
class InspectorSession {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(r: InspectorReply): void; reject(e: Error): void }>();

  private constructor(private readonly socket: InspectorSocket) {
    socket.onmessage = (event) => {
      const reply = JSON.parse(String(event.data)) as InspectorReply;
      const waiter = reply.id === undefined ? undefined : this.waiting.get(reply.id);
      if (!waiter) return; // a notification
      this.waiting.delete(reply.id!);
      if (reply.error) waiter.reject(new Error(reply.error.message));
      else waiter.resolve(reply);
    };
  }

  static open(url: string): Promise<InspectorSession> {
    // Node 20 has WebSocket behind --experimental-websocket (the load generator runs with it).
    const WebSocketClass = (globalThis as unknown as { WebSocket?: new (url: string) => InspectorSocket }).WebSocket;
    if (!WebSocketClass) throw new Error('no WebSocket in this Node (needs --experimental-websocket)');
    const socket = new WebSocketClass(url);
    return new Promise((resolve, reject) => {
      socket.onerror = () => reject(new Error(`inspector connection to ${url} failed`));
      socket.onopen = () => resolve(new InspectorSession(socket));
    });
  }

  call(method: string, params: Record<string, unknown> = {}): Promise<InspectorReply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer from the inspector`)), TIMEOUT_MS);
      this.waiting.set(id, {
        resolve: (r) => (clearTimeout(timer), resolve(r)),
        reject: (e) => (clearTimeout(timer), reject(new Error(`${method}: ${e.message}`))),
      });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.socket.close();
  }
}

export async function settleMemory(job: SettleMemoryJob): Promise<SettledMemory> {
  const session = await InspectorSession.open(job.inspectorUrl);
  try {
    // A second collection frees what the first one's finalizers released.
    for (let i = 0; i < job.collections; i++) await session.call('HeapProfiler.collectGarbage');
    const reply = await session.call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
    return JSON.parse(String(reply.result?.result?.value)) as SettledMemory;
  } finally {
    session.close();
  }
}
