/**
 * How a kernel thread ran while a job measured: in stretches, and how long the longest were. Its
 * average share of the CPUs (proc-stats.ts) hides what harms a latency tail: on this project's VMs
 * kdamond (DAMON's pageout) took 5-9% of a CPU on average in the watch phases and still held one of
 * the two CPUs for 20-110 ms at a time, every ~0.5 s, which the server's main thread then waited out
 * (bench/RESULTS.md, sixteenth and eighteenth sessions).
 *
 * Read from the benchmark's own process, which waits for its jobs meanwhile: one small file read
 * per thread every 10 ms.
 */
import { readFileSync } from 'node:fs';
import { kernelThreads } from './proc-stats.js';

/** Stretches shorter than this are not counted as long. */
export const LONG_STRETCH_MS = 20;
const SAMPLE_EVERY_MS = 10;

/**
 * A thread's stretches of running, from its CPU time so far read at a fixed interval: a stretch is
 * a run of intervals in each of which the thread got some CPU time; its length is that time.
 */
export class RunStretches {
  private last: number | undefined;
  private current = 0;
  /** The CPU time of each stretch that has ended (ms). */
  readonly stretches: number[] = [];

  /** The thread's CPU time so far (ms), read one interval after the previous reading. */
  add(cpuMs: number): void {
    if (this.last !== undefined) {
      const ran = cpuMs - this.last;
      if (ran > 0) this.current += ran;
      else this.end();
    }
    this.last = cpuMs;
  }

  /** Ends the stretch under way, if any. */
  end(): void {
    if (this.current > 0) this.stretches.push(this.current);
    this.current = 0;
  }
}

export interface StretchSummary {
  /** The threads sampled (e.g. 'kdamond.0'). */
  readonly threads: readonly string[];
  /** Stretches of at least LONG_STRETCH_MS. */
  readonly long: number;
  readonly longestMs: number;
  readonly totalMs: number;
}

export function summarize(threads: readonly string[], stretches: readonly number[]): StretchSummary {
  return {
    threads,
    long: stretches.filter((ms) => ms >= LONG_STRETCH_MS).length,
    longestMs: Math.max(0, ...stretches),
    totalMs: stretches.reduce((sum, ms) => sum + ms, 0),
  };
}

/** E.g. "kdamond.0 ran 12 times for 20 ms or more (the longest 48 ms; 610 ms in all)". */
export function describeStretches(summary: StretchSummary): string {
  const who = summary.threads.join(', ');
  const totals = `${Math.round(summary.totalMs)} ms in all`;
  if (summary.long === 0) return `${who} ran for less than ${LONG_STRETCH_MS} ms at a time (${totals})`;
  return `${who} ran ${summary.long} ${summary.long === 1 ? 'time' : 'times'} for ${LONG_STRETCH_MS} ms or more (the longest ${Math.round(summary.longestMs)} ms; ${totals})`;
}

/** Samples the kernel threads whose names start with a prefix, until stopped. */
export class KernelThreadSampler {
  private readonly timer: NodeJS.Timeout;

  private constructor(private readonly threads: readonly { readonly name: string; readonly pid: number; readonly runs: RunStretches }[]) {
    this.sample();
    this.timer = setInterval(() => this.sample(), SAMPLE_EVERY_MS);
  }

  /**
   * Starts sampling the kernel threads named `prefix`...; undefined when there are none, or the
   * kernel keeps no scheduler statistics (/proc/<pid>/schedstat) to read them by.
   */
  static start(prefix: string): KernelThreadSampler | undefined {
    const threads = kernelThreads()
      .filter((t) => t.name.startsWith(prefix) && cpuMsOf(t.pid) !== undefined)
      .map((t) => ({ name: t.name, pid: t.pid, runs: new RunStretches() }));
    return threads.length === 0 ? undefined : new KernelThreadSampler(threads);
  }

  stop(): StretchSummary {
    clearInterval(this.timer);
    this.sample();
    for (const t of this.threads) t.runs.end();
    return summarize(
      this.threads.map((t) => t.name),
      this.threads.flatMap((t) => t.runs.stretches),
    );
  }

  private sample(): void {
    for (const t of this.threads) {
      const cpuMs = cpuMsOf(t.pid);
      if (cpuMs !== undefined) t.runs.add(cpuMs);
    }
  }
}

/** A thread's time on a CPU so far (ms), from its schedstat (nanoseconds, exact, unlike stat's ticks). */
function cpuMsOf(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ', 1)[0]) / 1e6;
  } catch {
    return undefined;
  }
}
