/**
 * Closed-loop rounds summarized: the rate is the median of the rounds' rates (the machine is
 * shared, a median resists one disturbed round), latency percentiles pool every round's samples.
 */
import type { E2eContext } from '../e2e-context.js';
import { ms, rate } from '../format.js';
import type { ClosedLoopJob, ClosedLoopResult } from '../jobs.js';
import { median, percentiles } from '../stats.js';

export interface Throughput {
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly failed: number;
  readonly firstFailure?: string;
}

export function summarize(rounds: readonly ClosedLoopResult[]): Throughput {
  const p = percentiles(...rounds.map((r) => r.latenciesMs));
  const failed = rounds.reduce((n, r) => n + r.failed, 0);
  const firstFailure = rounds.find((r) => r.firstFailure)?.firstFailure;
  return {
    perSecond: median(rounds.map((r) => (r.ok * 1000) / r.elapsedMs)),
    p50Ms: p.p50,
    p99Ms: p.p99,
    failed,
    ...(firstFailure ? { firstFailure } : {}),
  };
}

/** "12,345 req/s; p50 1.23 ms, p99 45.6 ms" (plus failures, if any). */
export function describeThroughput(t: Throughput): string {
  return `${rate(t.perSecond)} req/s; p50 ${ms(t.p50Ms)} ms, p99 ${ms(t.p99Ms)} ms${t.failed ? `; ${t.failed} failed` : ''}`;
}

/** Notes failed requests of a summarized workload as a problem of the run. */
export function noteFailures(ctx: E2eContext, workload: string, t: Throughput): void {
  if (t.failed > 0) ctx.problems.push(`${workload}: ${t.failed} requests failed, first: ${t.firstFailure}`);
}

/** A closed-loop job of the settings' round length against the context's target. */
export function roundJob(ctx: E2eContext, concurrency: number, pattern: ClosedLoopJob['pattern'], durationMs = ctx.settings.roundMs): ClosedLoopJob {
  return { kind: 'closed-loop', target: ctx.target, concurrency, pattern, durationMs, maxRequests: Number.MAX_SAFE_INTEGER };
}
