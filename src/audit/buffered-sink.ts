/**
 * The `batch` mode: events are queued and written later, several per write, so that a request
 * never waits for the audit log. As upstream's buffered backend:
 * - at most `bufferSize` events wait; beyond that an event is dropped and reported;
 * - a batch is written when it has `maxBatchSize` events, or `maxBatchWaitMs` after the first
 *   event of a batch came (0: at the end of the current turn of the event loop);
 * - with the throttle on, at most `throttleQps` batches a second go out, `throttleBurst` at once.
 * Stopping writes every queued event, throttle or not, and waits for what is being sent.
 */
import type { Logger } from '../server/logger.js';
import { nodeTimers, type Timers } from '../util/sleep.js';
import type { AuditEvent } from './event.js';
import type { EventWriter } from './event-writer.js';
import { reportLostEvents, type AuditSink } from './sink.js';

export interface BatchConfig {
  readonly bufferSize: number;
  readonly maxBatchSize: number;
  readonly maxBatchWaitMs: number;
  readonly throttleEnable: boolean;
  readonly throttleQps: number;
  readonly throttleBurst: number;
}

export class BufferedSink implements AuditSink {
  private readonly queue: AuditEvent[] = [];
  private timer: unknown = undefined;
  /** Token bucket of the throttle: tokens left, and when it was last filled (ms). */
  private tokens: number;
  private filledAt: number;

  constructor(
    private readonly writer: EventWriter,
    private readonly config: BatchConfig,
    private readonly logger: Logger,
    private readonly timers: Timers = nodeTimers,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = config.throttleBurst;
    this.filledAt = now();
  }

  processEvent(event: AuditEvent): boolean {
    if (this.queue.length >= this.config.bufferSize) {
      reportLostEvents(this.logger, this.writer.plugin, new Error('audit buffer queue blocked'), [event]);
      // As upstream: a full buffer loses the event but does not fail the request.
      return true;
    }
    this.queue.push(snapshotOf(event));
    if (this.queue.length >= this.config.maxBatchSize) this.schedule(0);
    else if (this.timer === undefined) this.schedule(this.config.maxBatchWaitMs);
    return true;
  }

  async close(): Promise<void> {
    this.cancelTimer();
    while (this.queue.length > 0) this.writeBatch();
    await this.writer.close();
  }

  private schedule(ms: number): void {
    this.cancelTimer();
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, ms);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Writes batches while the throttle lets them go; waits for the next token otherwise. */
  private flush(): void {
    while (this.queue.length > 0) {
      const wait = this.takeToken();
      if (wait > 0) return this.schedule(wait);
      this.writeBatch();
      // A partial batch left behind waits its own time, as a new batch would.
      if (this.queue.length > 0 && this.queue.length < this.config.maxBatchSize) return this.schedule(this.config.maxBatchWaitMs);
    }
  }

  private writeBatch(): void {
    const batch = this.queue.splice(0, this.config.maxBatchSize);
    const lost = (err: unknown): void => reportLostEvents(this.logger, this.writer.plugin, err, batch);
    try {
      // A writer that sends (the webhook) is not waited for: batches go out side by side.
      this.writer.writeEvents(batch)?.catch(lost);
    } catch (err) {
      lost(err);
    }
  }

  /** 0 when a batch may go now (a token is used), else the milliseconds until one may. */
  private takeToken(): number {
    if (!this.config.throttleEnable) return 0;
    const now = this.now();
    const { throttleQps: qps, throttleBurst: burst } = this.config;
    this.tokens = Math.min(burst, this.tokens + ((now - this.filledAt) * qps) / 1000);
    this.filledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 1000) / qps);
  }
}

/**
 * The event as it is now. The filter goes on changing the same event for its next stages; the
 * parts it changes (stage, times, status, annotations, object reference) are copied.
 */
export function snapshotOf(event: AuditEvent): AuditEvent {
  const copy: AuditEvent = { ...event };
  if (event.objectRef) copy.objectRef = { ...event.objectRef };
  if (event.responseStatus) copy.responseStatus = { ...event.responseStatus };
  if (event.annotations) copy.annotations = { ...event.annotations };
  return copy;
}
