/**
 * The jobs the load-generator process runs and what each reports back: plain data, so they cross
 * the IPC channel (advanced serialization keeps typed arrays intact).
 */
import type { Target } from './target.js';
import type { CpuWhileMeasured } from './proc-stats.js';

/**
 * A request pattern. In `path` and `body`, `{n}` becomes the request's number, zero-padded to 7
 * digits (so every body has the same size): `first`, `first+1`, ..., wrapping after `cycle`
 * numbers when `cycle` is set. `{t}` becomes the wall-clock send time in milliseconds.
 */
export interface RequestPattern {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly first: number;
  readonly cycle?: number;
}

/** `concurrency` clients, each sending its next request when its previous one is answered. */
export interface ClosedLoopJob {
  readonly kind: 'closed-loop';
  readonly target: Target;
  readonly concurrency: number;
  readonly pattern: RequestPattern;
  /** Stop sending after this long (ms) or this many timed requests, whichever comes first. */
  readonly durationMs: number;
  readonly maxRequests: number;
  /** HTTP/1.1 (default): a keep-alive connection per client; h2: one connection, a stream per client. */
  readonly protocol?: 'http/1.1' | 'h2';
  /** The server's process, when it runs on this machine: its CPU is read while the clock runs. */
  readonly serverPid?: number;
}

/** Its CPU figures (CpuWhileMeasured) cover the timed part. */
export interface ClosedLoopResult extends CpuWhileMeasured {
  /** Timed requests answered with 2xx. */
  readonly ok: number;
  /** Timed requests answered otherwise, or failed on the connection. */
  readonly failed: number;
  /** Untimed requests that opened each client's connection first (their objects exist too). */
  readonly untimed: number;
  /** Count per HTTP status (0: connection error). */
  readonly statuses: Readonly<Record<string, number>>;
  /** The first failure, for the report. */
  readonly firstFailure?: string;
  /** Latency of every successful timed request (ms). */
  readonly latenciesMs: Float64Array;
  readonly elapsedMs: number;
  /** Bytes of all 2xx response bodies. */
  readonly responseBytes: number;
  /** CPU the load generator used during the timed part, in cores. */
  readonly generatorCores: number;
}

/** A list request repeated, following `continue` tokens when `pageSize` is set. */
export interface ListJob {
  readonly kind: 'list';
  readonly target: Target;
  /** Path without `limit`/`continue`. */
  readonly path: string;
  readonly accept?: string;
  readonly pageSize?: number;
  /** Timed runs, after one untimed run that checks the answer. */
  readonly runs: number;
  /** The server's process, when it runs on this machine: its CPU is read over the timed runs. */
  readonly serverPid?: number;
}

/** Its CPU figures (CpuWhileMeasured) cover the timed runs. */
export interface ListResult extends CpuWhileMeasured {
  /** Duration of each timed run, from the first request to the last byte of the last page (ms). */
  readonly runsMs: readonly number[];
  readonly pages: number;
  /** Items (or Table rows) counted in the untimed run. */
  readonly items: number;
  /** Bytes of one whole run. */
  readonly bytes: number;
}

/** `watchers` watches from one resource version; each expects `expectedEvents` numbered events. */
export interface WatchJob {
  readonly kind: 'watch';
  readonly target: Target;
  /** Watch path including `resourceVersion`. */
  readonly path: string;
  readonly watchers: number;
  /** Events numbered 0 .. expectedEvents-1 (the `seq` data key). */
  readonly expectedEvents: number;
  /** The events split by seq into this many consecutive rounds, whose latencies are kept apart. */
  readonly rounds: number;
  /** Watches opened at once while connecting. */
  readonly openConcurrency: number;
  /** Give up this long (ms) after all watches are open. */
  readonly deadlineMs: number;
  /** HTTP/1.1 (default): a connection per watch; h2: every watch a stream on one connection. */
  readonly protocol?: 'http/1.1' | 'h2';
  /** The server's process, when it runs on this machine: its CPU is read while events flow. */
  readonly serverPid?: number;
}

/** Sent as progress once every watch has its response headers. */
export interface WatchEstablished {
  readonly setupMs: number;
}

/** Its CPU figures (CpuWhileMeasured) cover the time events flowed. */
export interface WatchResult extends CpuWhileMeasured {
  readonly setupMs: number;
  /** Per round: from each event's `sentAt` to its arrival at one watcher (ms), one sample per delivery. */
  readonly latenciesMs: Float64Array[];
  /**
   * Per event (indexed by seq): its latency to the first and to the last of this job's watchers
   * that got it; Infinity and -Infinity for an event none got.
   */
  readonly firstArrivalMs: Float64Array;
  readonly lastArrivalMs: Float64Array;
  /** Deliveries expected but not received (watchers x events - distinct received). */
  readonly lost: number;
  readonly duplicates: number;
  /** Watches that ended, failed or received an ERROR event before the job finished. */
  readonly cutOff: number;
  /** CPU the receiving process used while events flowed, in cores (1 = one core busy). */
  readonly receiverCpu: number;
  /** p99 of the receiving process's own event-loop delay while events flowed (ms). */
  readonly receiverLoopDelayP99Ms: number;
  /** The longest the receiving process's event loop ran late: a stall of the measuring side shows here. */
  readonly receiverLoopDelayMaxMs: number;
  readonly firstProblem?: string;
}

/** Writes at a fixed rate, each body stamped with its send time (`{t}`), open loop. */
export interface PacedWriteJob {
  readonly kind: 'paced-writes';
  readonly target: Target;
  readonly pattern: RequestPattern;
  readonly perSecond: number;
  readonly count: number;
}

export interface PacedWriteResult {
  readonly ok: number;
  readonly failed: number;
  readonly firstFailure?: string;
  readonly latenciesMs: Float64Array;
  /** The rate the writes actually went out at. */
  readonly achievedPerSecond: number;
}

/** Every object of a list path, paged: how many and how large their JSON is. */
export interface CensusJob {
  readonly kind: 'census';
  readonly target: Target;
  readonly path: string;
  readonly pageSize: number;
}

export interface CensusResult {
  readonly objects: number;
  /** Sum of each object's compact JSON encoding, in bytes. */
  readonly jsonBytes: number;
}

/** The create ceiling: raw batched SQLite inserts of `value`, WAL, synchronous=FULL. */
export interface SqliteInsertJob {
  readonly kind: 'sqlite-inserts';
  readonly directory: string;
  readonly value: string;
  readonly batchSize: number;
  readonly durationMs: number;
}

export interface SqliteInsertResult {
  readonly rows: number;
  readonly elapsedMs: number;
  /** Commit latency of each batch (ms). */
  readonly batchLatenciesMs: Float64Array;
}

/** Full garbage collections in another Node process through its inspector, then its memory usage. */
export interface SettleMemoryJob {
  readonly kind: 'settle-memory';
  readonly inspectorUrl: string;
  readonly collections: number;
}

/** The server's `process.memoryUsage()` after the collections, in bytes. */
export interface SettledMemory {
  readonly rss: number;
  readonly heapTotal: number;
  readonly heapUsed: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

export type Job = ClosedLoopJob | ListJob | WatchJob | PacedWriteJob | CensusJob | SqliteInsertJob | SettleMemoryJob;

/** The result type of each job kind. */
export interface JobResults {
  'closed-loop': ClosedLoopResult;
  list: ListResult;
  watch: WatchResult;
  'paced-writes': PacedWriteResult;
  census: CensusResult;
  'sqlite-inserts': SqliteInsertResult;
  'settle-memory': SettledMemory;
}

/** Parent to load generator. */
export interface JobMessage {
  readonly id: number;
  readonly job: Job;
}

/** Load generator to parent. */
export type ReplyMessage =
  | { readonly id: number; readonly type: 'progress'; readonly data: unknown }
  | { readonly id: number; readonly type: 'result'; readonly result: unknown }
  | { readonly id: number; readonly type: 'error'; readonly message: string };
