/**
 * Closed-loop rounds run and summarized: the rate is the median of the rounds' rates (the machine
 * is shared, a median resists one disturbed round), latency percentiles pool every round's samples.
 * Each round also records the CPU the server and the load generator used, to tell a slow server
 * from a full machine.
 */
import type { E2eContext } from '../e2e-context.js';
import { ms, rate } from '../format.js';
import type { ClosedLoopJob, ClosedLoopResult } from '../jobs.js';
import { median, percentiles } from '../../stats.js';

/** A round's result and the server's CPU during it (when the benchmark runs the server). */
export interface Round {
  readonly result: ClosedLoopResult;
  readonly serverCores?: number;
}

export interface Throughput {
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly failed: number;
  readonly firstFailure?: string;
  /** Median over rounds, in cores. */
  readonly serverCores?: number;
  readonly generatorCores: number;
}

/**
 * Runs one closed-loop round, reading the server's CPU time (seconds) around it with `cpuSeconds`:
 * by default the benchmark's Capstan, none for an external server.
 */
export async function runRound(ctx: E2eContext, job: ClosedLoopJob, cpuSeconds = ctx.server.capstan?.cpuSeconds): Promise<Round> {
  const before = cpuSeconds?.();
  const result = await ctx.load.run(job);
  // The server's CPU also counts the untimed connection setup; small next to a round.
  const serverCores = cpuSeconds && before !== undefined ? ((cpuSeconds() - before) * 1000) / result.elapsedMs : undefined;
  return { result, ...(serverCores !== undefined ? { serverCores } : {}) };
}

export function summarize(rounds: readonly Round[]): Throughput {
  const results = rounds.map((r) => r.result);
  const p = percentiles(...results.map((r) => r.latenciesMs));
  const failed = results.reduce((n, r) => n + r.failed, 0);
  const firstFailure = results.find((r) => r.firstFailure)?.firstFailure;
  const serverCores = rounds.flatMap((r) => (r.serverCores === undefined ? [] : [r.serverCores]));
  return {
    perSecond: median(results.map((r) => (r.ok * 1000) / r.elapsedMs)),
    p50Ms: p.p50,
    p99Ms: p.p99,
    failed,
    ...(firstFailure ? { firstFailure } : {}),
    ...(serverCores.length > 0 ? { serverCores: median(serverCores) } : {}),
    generatorCores: median(results.map((r) => r.generatorCores)),
  };
}

/** "12,345 req/s; p50 1.23 ms, p99 45.6 ms" (plus failures, if any). */
export function describeThroughput(t: Throughput): string {
  return `${rate(t.perSecond)} req/s; p50 ${ms(t.p50Ms)} ms, p99 ${ms(t.p99Ms)} ms${t.failed ? `; ${t.failed} failed` : ''}`;
}

/** Notes failed requests as a problem of the run, and where the CPU went as a detail. */
export function note(ctx: E2eContext, workload: string, t: Throughput): void {
  if (t.failed > 0) ctx.problems.push(`${workload}: ${t.failed} requests failed, first: ${t.firstFailure}`);
  const perRequest = (cores: number): string => `${Math.round((cores * 1e6) / t.perSecond)} µs CPU per request`;
  const server = t.serverCores === undefined ? '' : `the server used ${t.serverCores.toFixed(2)} cores (${perRequest(t.serverCores)}), `;
  ctx.notes.push(`${workload}: ${server}the load generator ${t.generatorCores.toFixed(2)} cores (medians over rounds).`);
}

/** A closed-loop job of the settings' round length against the context's target. */
export function roundJob(ctx: E2eContext, concurrency: number, pattern: ClosedLoopJob['pattern'], durationMs = ctx.settings.roundMs): ClosedLoopJob {
  return { kind: 'closed-loop', target: ctx.target, concurrency, pattern, durationMs, maxRequests: Number.MAX_SAFE_INTEGER };
}
