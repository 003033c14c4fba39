/**
 * The hand-over between a producer that pushes (a gRPC stream) and a consumer that pulls (an async
 * iterator). The queue does not drop items: when it holds `highWater` of them it asks the producer
 * to pause, and when the consumer has taken them down to half of that, to resume, so memory stays
 * bounded by flow control (gRPC stops reading and etcd stops sending) rather than by loss.
 */
import { Fifo } from '../../../util/fifo.js';

export interface FlowControl {
  pause(): void;
  resume(): void;
}

export class BoundedQueue<T> {
  private readonly items = new Fifo<T>();
  private paused = false;
  /** Set once the queue ends: 'done' or the error the consumer gets after the items. */
  private ending: { readonly error?: unknown } | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly highWater: number,
    private readonly flow: FlowControl,
  ) {}

  /** The producer has been asked to pause and not yet to resume. */
  get isPaused(): boolean {
    return this.paused;
  }

  /** Adds an item; ignored once the queue has ended. */
  push(item: T): void {
    if (this.ending !== undefined) return;
    this.items.push(item);
    if (!this.paused && this.items.length >= this.highWater) {
      this.paused = true;
      this.flow.pause();
    }
    this.wakeUp();
  }

  /** Ends the queue after the items already in it; `take` then throws `error` (if given) or ends. */
  end(error?: unknown): void {
    if (this.ending !== undefined) return;
    this.ending = error === undefined ? {} : { error };
    this.wakeUp();
  }

  /** Ends the queue at once, dropping what it holds. */
  discard(): void {
    this.items.clear();
    this.end();
  }

  /** The next item, or done once the queue ended and is empty; throws the ending error. */
  async take(): Promise<IteratorResult<T, undefined>> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        if (this.paused && this.items.length <= this.highWater / 2) {
          this.paused = false;
          this.flow.resume();
        }
        return { done: false, value: item };
      }
      if (this.ending !== undefined) {
        if ('error' in this.ending) throw this.ending.error;
        return { done: true, value: undefined };
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
