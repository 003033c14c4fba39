/**
 * The compaction loop: keeps the store's history at about one interval long.
 *
 * Every `intervalMs` it compacts to the revision it read one interval earlier, then reads the
 * current revision for the next round. So history younger than one interval is always kept: a
 * client that listed at revision R can watch from R for at least an interval. Example with a
 * 5-minute interval: at 12:00 it reads 100; at 12:05 it compacts to 100 and reads 250; at 12:10 it
 * compacts to 250.
 *
 * Errors never stop the loop: each is logged and the next round runs as planned. A 'compacted'
 * answer (someone else compacted further already) is not an error.
 */
import { setLongTimeout, type LongTimeout } from '../util/long-timeout.js';
import type { Timers } from '../util/sleep.js';
import { isStorageError } from './errors.js';
import type { Storage } from './storage.js';

/** Five minutes, the upstream default of --store-compaction-interval. */
export const DEFAULT_COMPACTION_INTERVAL_MS = 5 * 60_000;

/** The timers the loop waits with. */
export type CompactorClock = Timers;

export interface CompactorLogger {
  error(message: string, err?: unknown): void;
}

export interface CompactorOptions {
  readonly storage: Pick<Storage, 'currentRevision' | 'compact'>;
  /** Time between rounds; 0 disables compaction. Default five minutes. */
  readonly intervalMs?: number;
  readonly logger: CompactorLogger;
  /** Default: the real timers, unref'd so that the loop never keeps the process alive. */
  readonly clock?: CompactorClock;
}

const realClock: CompactorClock = {
  // An interval may be longer than a Node timer holds (--store-compaction-interval 720h).
  setTimeout: (callback, ms) => setLongTimeout(callback, ms, { ref: false }),
  clearTimeout: (handle) => (handle as LongTimeout).cancel(),
};

export class Compactor {
  private readonly intervalMs: number;
  private readonly clock: CompactorClock;
  /** The revision read one round ago: what the next round compacts to. */
  private seenRevision: number | undefined;
  /** The highest revision this loop compacted to, so that a round with nothing new skips. */
  private compactedTo = 0;
  private timer: unknown;
  private round: Promise<void> | undefined;
  private running = false;

  constructor(private readonly options: CompactorOptions) {
    this.intervalMs = options.intervalMs ?? DEFAULT_COMPACTION_INTERVAL_MS;
    if (!(Number.isFinite(this.intervalMs) && this.intervalMs >= 0)) {
      throw new RangeError(`Compactor: intervalMs must be a non-negative number, got ${this.intervalMs}`);
    }
    this.clock = options.clock ?? realClock;
  }

  /**
   * Reads the current revision now (the first target) and schedules the rounds. Does nothing when
   * the interval is 0 or the loop already runs.
   */
  start(): void {
    if (this.intervalMs === 0 || this.running) return;
    this.running = true;
    this.round = this.observe().finally(() => this.scheduleNext());
  }

  /** Stops scheduling rounds; resolves when a round in progress has finished. Never rejects. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    await this.round;
  }

  private scheduleNext(): void {
    if (!this.running || this.timer !== undefined) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.round = this.compactThenObserve().finally(() => this.scheduleNext());
    }, this.intervalMs);
  }

  private async compactThenObserve(): Promise<void> {
    const target = this.seenRevision;
    if (target !== undefined && target > this.compactedTo) {
      try {
        await this.options.storage.compact(target);
        this.compactedTo = target;
      } catch (err) {
        if (isStorageError(err, 'compacted')) this.compactedTo = target;
        else this.options.logger.error(`storage: compaction to revision ${target} failed; retrying next round`, err);
      }
    }
    await this.observe();
  }

  /** Remembers the current revision as the next round's target. */
  private async observe(): Promise<void> {
    try {
      this.seenRevision = await this.options.storage.currentRevision();
    } catch (err) {
      this.options.logger.error('storage: compaction could not read the current revision; retrying next round', err);
    }
  }
}
