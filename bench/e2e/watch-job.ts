/**
 * The watch job: many watches from one resource version, each counting the numbered events it
 * receives and timing each from the write's `sentAt` stamp to its arrival. Lines are scanned for
 * the two data keys instead of parsed: at 50,000 events/s, JSON.parse in this process would add to
 * the latency being measured.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { now, wallClock } from './https-client.js';
import { coresOfOthers, readCpuOfOthers } from './proc-stats.js';
import { openWatchStreams, type WatchBody } from './watch-streams.js';
import type { WatchEstablished, WatchJob, WatchResult } from './jobs.js';

/**
 * What every watcher writes into: one sample array per round for all watchers, each event's
 * first and last arrival, and the first problem seen.
 */
class Deliveries {
  /** Round r holds the deliveries of events r*eventsPerRound .. (r+1)*eventsPerRound-1. */
  readonly latencies: Float64Array[];
  readonly counts: number[];
  /** Per event (by seq): its earliest and latest arrival at any watcher, from its send (ms). */
  readonly firstArrival: Float64Array;
  readonly lastArrival: Float64Array;
  private readonly eventsPerRound: number;
  cutOff = 0;
  duplicates = 0;
  complete = 0;
  firstProblem: string | undefined;
  finishing = false;
  constructor(watchers: number, events: number, rounds: number) {
    this.eventsPerRound = Math.ceil(events / rounds);
    this.latencies = Array.from({ length: rounds }, () => new Float64Array(watchers * this.eventsPerRound));
    this.counts = new Array<number>(rounds).fill(0);
    this.firstArrival = new Float64Array(events).fill(Infinity);
    this.lastArrival = new Float64Array(events).fill(-Infinity);
  }
  /** One delivery of event `seq`, `latency` ms after its send. */
  record(seq: number, latency: number): void {
    const round = Math.floor(seq / this.eventsPerRound);
    // Room for every delivery of the round: each watcher records each event once (see `seen`).
    this.latencies[round]![this.counts[round]!++] = latency;
    if (latency < this.firstArrival[seq]!) this.firstArrival[seq] = latency;
    if (latency > this.lastArrival[seq]!) this.lastArrival[seq] = latency;
  }
  problem(text: string): void {
    this.firstProblem ??= text;
  }
}

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const ERROR_EVENT = Buffer.from('{"type":"ERROR"');
const SEQ_KEY = Buffer.from('"seq":"');
const SENT_AT_KEY = Buffer.from('"sentAt":"');

/** One watch connection's view of the stream. */
class Watcher {
  /** The start of a line whose end has not arrived yet. */
  private partial: Buffer | undefined;
  private distinct = 0;
  private readonly seen: Uint8Array;
  private ended = false;

  constructor(private readonly expected: number, private readonly deliveries: Deliveries) {
    this.seen = new Uint8Array(expected);
  }

  get received(): number {
    return this.distinct;
  }

  /** Starts reading a watch response whose headers said 200. */
  attach(stream: WatchBody): void {
    stream.on('data', (chunk: Buffer) => this.onData(chunk));
    stream.on('end', () => this.onEnd('the server ended the watch'));
    stream.on('error', (err) => this.onEnd(String(err)));
    stream.on('close', () => this.onEnd('the watch connection closed'));
    stream.resume();
  }

  // Bytes, not strings: decoding 50,000 events of 1 KiB a second into strings cost this process
  // more CPU (and garbage) than the HTTP parsing, on the CPUs the server shares.
  private onData(chunk: Buffer): void {
    const arrived = wallClock();
    const bytes = this.partial === undefined ? chunk : Buffer.concat([this.partial, chunk]);
    let start = 0;
    for (let nl = bytes.indexOf(NEWLINE); nl >= 0; nl = bytes.indexOf(NEWLINE, start)) {
      this.onLine(bytes, start, nl, arrived);
      start = nl + 1;
    }
    this.partial = start < bytes.length ? Buffer.from(bytes.subarray(start)) : undefined;
  }

  private onLine(bytes: Buffer, from: number, to: number, arrived: number): void {
    if (ERROR_EVENT.compare(bytes, from, Math.min(to, from + ERROR_EVENT.length)) === 0) {
      this.onEnd(`ERROR event: ${bytes.toString('utf8', from, Math.min(to, from + 300))}`);
      return;
    }
    const seq = numberAfter(bytes, SEQ_KEY, from, to);
    if (seq === undefined) return; // a bookmark, a warm-up write or an object that is not ours
    const sentAt = numberAfter(bytes, SENT_AT_KEY, from, to);
    const d = this.deliveries;
    if (seq < 0 || seq >= this.expected || this.seen[seq]) {
      d.duplicates++;
      return;
    }
    this.seen[seq] = 1;
    this.distinct++;
    if (sentAt !== undefined) d.record(seq, arrived - sentAt);
    if (this.distinct === this.expected) d.complete++;
  }

  private onEnd(reason: string): void {
    if (this.ended || this.deliveries.finishing) return;
    this.ended = true;
    this.deliveries.cutOff++;
    this.deliveries.problem(reason);
  }
}

/**
 * The string value after `key` in the line bytes[from, to), as a number. Searched from the line's
 * end: the data keys come last in a ConfigMap, after its payload.
 */
function numberAfter(bytes: Buffer, key: Buffer, from: number, to: number): number | undefined {
  const at = bytes.lastIndexOf(key, to);
  if (at < from) return undefined;
  const begin = at + key.length;
  return Number(bytes.toString('latin1', begin, bytes.indexOf(QUOTE, begin)));
}

/** Runs `job`; `progress` is called once all watches are open. Bounded by the job's deadline. */
export async function runWatch(job: WatchJob, progress: (data: WatchEstablished) => void): Promise<WatchResult> {
  const streams = await openWatchStreams(job.target, job.protocol ?? 'http/1.1');
  const deliveries = new Deliveries(job.watchers, job.expectedEvents, job.rounds);
  const watchers = Array.from({ length: job.watchers }, () => new Watcher(job.expectedEvents, deliveries));
  try {
    const began = now();
    let next = 0;
    const opener = async (): Promise<void> => {
      while (next < watchers.length) watchers[next++]!.attach(await streams.open(job.path));
    };
    await Promise.all(Array.from({ length: job.openConcurrency }, opener));
    const setupMs = now() - began;
    progress({ setupMs });
    const othersBefore = readCpuOfOthers(job.serverPid);
    const cpuBefore = process.cpuUsage();
    // How late this process's own event loop runs: a floor under the latencies it can observe.
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const watchingSince = now();
    const deadline = watchingSince + job.deadlineMs;
    while (deliveries.complete + deliveries.cutOff < job.watchers && now() < deadline) await sleep(20);
    deliveries.finishing = true;
    loopDelay.disable();
    const cpu = process.cpuUsage(cpuBefore);
    const others = coresOfOthers(othersBefore, readCpuOfOthers(job.serverPid), now() - watchingSince);
    const received = watchers.reduce((sum, w) => sum + w.received, 0);
    return {
      setupMs,
      latenciesMs: deliveries.latencies.map((samples, round) => samples.slice(0, deliveries.counts[round])),
      firstArrivalMs: deliveries.firstArrival,
      lastArrivalMs: deliveries.lastArrival,
      lost: job.watchers * job.expectedEvents - received,
      duplicates: deliveries.duplicates,
      cutOff: deliveries.cutOff,
      receiverCpu: (cpu.user + cpu.system) / 1000 / (now() - watchingSince),
      receiverLoopDelayP99Ms: loopDelay.percentile(99) / 1e6,
      receiverLoopDelayMaxMs: loopDelay.max / 1e6,
      ...others,
      ...(deliveries.firstProblem ? { firstProblem: deliveries.firstProblem } : {}),
    };
  } finally {
    deliveries.finishing = true;
    streams.close();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
