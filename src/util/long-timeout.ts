/**
 * Timers for delays a Node timer cannot hold. Node's setTimeout takes at most 2^31 - 1 ms (about
 * 24.8 days) and fires a longer delay after 1 ms instead, with only a warning: a watch asking for a
 * timeout of 30 days, or a compaction interval of 720h, would end or run at once.
 */

/** The longest delay a Node timer holds: 2^31 - 1 ms. */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

export interface LongTimeoutOptions {
  /** Whether the timer may keep the process alive (as Node's `ref`); default true. */
  readonly ref?: boolean;
}

/** A pending long timeout; `cancel` is safe to call at any time, more than once. */
export interface LongTimeout {
  cancel(): void;
}

/**
 * Calls `callback` after `ms` (Infinity: never), waiting in steps of at most LONGEST_TIMER_MS.
 */
export function setLongTimeout(callback: () => void, ms: number, { ref = true }: LongTimeoutOptions = {}): LongTimeout {
  let timer: NodeJS.Timeout | undefined;
  const wait = (remaining: number): void => {
    const step = Math.min(Math.max(0, remaining), LONGEST_TIMER_MS);
    timer = setTimeout(() => (remaining > step ? wait(remaining - step) : callback()), step);
    if (!ref) timer.unref();
  };
  wait(ms);
  return { cancel: () => clearTimeout(timer) };
}
