/**
 * Watch delivery latency: `watchers` watches on one prefix; one event written at a time, timed from
 * the moment the write is issued (and, separately, from its acknowledgement) until the last of the
 * watchers has received it. All watchers consume in this process, as a server's would.
 */
import { setMaxListeners } from 'node:events';
import type { Storage } from '../../src/storage/storage.js';
import { percentiles } from '../stats.js';
import { benchValue, now } from './stats.js';

export interface WatchLatency {
  readonly watchers: number;
  readonly events: number;
  /** From issuing the write to the last watcher having the event. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The same, from the write's acknowledgement. */
  readonly afterAckP50Ms: number;
  readonly afterAckP99Ms: number;
  /** Events that did not reach every watcher within the timeout: should be 0. */
  readonly lost: number;
  /** How long opening the watchers took until all had a first event. */
  readonly setupMs: number;
}

const EVENT_TIMEOUT_MS = 10_000;

/** Per event key: how many watchers have it, and who waits for all of them. */
interface Arrival {
  count: number;
  done: (at: number) => void;
}

export async function measureWatchLatency(
  storage: Storage,
  prefix: string,
  watchers: number,
  events: number,
  valueBytes: number,
): Promise<WatchLatency> {
  const arrivals = new Map<string, Arrival>();
  const controller = new AbortController();
  // One signal ends every watcher; each of them listens to it.
  setMaxListeners(watchers + 10, controller.signal);
  const from = await storage.currentRevision();
  const setupStarted = now();
  const consumers = Array.from({ length: watchers }, async () => {
    try {
      for await (const batch of storage.watch(prefix, from, { signal: controller.signal })) {
        for (const event of batch.events) {
          const arrival = arrivals.get(event.kv.key);
          if (arrival !== undefined && ++arrival.count === watchers) arrival.done(now());
        }
      }
    } catch (err) {
      console.error(`a watcher failed: ${String(err)}`);
    }
  });

  /** Writes one event; resolves with the issue, acknowledgement and all-delivered times. */
  async function deliver(key: string, seed: number): Promise<{ issued: number; acked: number; delivered: number } | undefined> {
    const all = new Promise<number | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), EVENT_TIMEOUT_MS);
      arrivals.set(key, {
        count: 0,
        done: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      });
    });
    const issued = now();
    await storage.create(key, benchValue(valueBytes, seed));
    const acked = now();
    const delivered = await all;
    arrivals.delete(key);
    return delivered === undefined ? undefined : { issued, acked, delivered };
  }

  try {
    // Every watcher has seen an event (all streams are open) before anything is timed.
    for (let w = 0; w < 3; w++) await deliver(`${prefix}warmup-${w}`, w);
    const setupMs = now() - setupStarted;
    const fromIssue: number[] = [];
    const fromAck: number[] = [];
    let lost = 0;
    for (let e = 0; e < events; e++) {
      const timing = await deliver(`${prefix}event-${e}`, e);
      if (timing === undefined) {
        lost++;
        continue;
      }
      fromIssue.push(timing.delivered - timing.issued);
      fromAck.push(timing.delivered - timing.acked);
    }
    const issued = percentiles(fromIssue);
    const acked = percentiles(fromAck);
    return {
      watchers,
      events,
      p50Ms: issued.p50,
      p99Ms: issued.p99,
      afterAckP50Ms: acked.p50,
      afterAckP99Ms: acked.p99,
      lost,
      setupMs,
    };
  } finally {
    controller.abort();
    await Promise.all(consumers);
  }
}
