/**
 * Closed-loop rounds run and summarized: the rate is the median of the rounds' rates (the machine
 * is shared, a median resists one disturbed round), latency percentiles pool every round's samples.
 * Each round also records the CPU the server (and its main thread) and the load generator used,
 * and what the machine left idle or lost to other guests of its host, to tell a slow server from a
 * full or a disturbed machine.
 */
import { availableParallelism } from 'node:os';
import type { E2eContext } from '../e2e-context.js';
import { ms, rate } from '../format.js';
import type { ClosedLoopJob, ClosedLoopResult } from '../jobs.js';
import { describeMachine, describeServerCpu, type CpuWhileMeasured } from '../proc-stats.js';
import { median, percentiles } from '../../stats.js';

/** Its CPU figures (CpuWhileMeasured) are medians over the rounds. */
export interface Throughput extends CpuWhileMeasured {
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly failed: number;
  readonly firstFailure?: string;
  readonly generatorCores: number;
}

/**
 * Runs one closed-loop round, with the CPU of the server process read while its clock runs: by
 * default the benchmark's Capstan (none for an external server), or the process `serverPid`.
 */
export function runRound(ctx: E2eContext, job: ClosedLoopJob, serverPid?: number): Promise<ClosedLoopResult> {
  return ctx.load.run({ ...job, ...(serverPid === undefined ? ctx.serverProcess : { serverPid }) });
}

export function summarize(results: readonly ClosedLoopResult[]): Throughput {
  const p = percentiles(...results.map((r) => r.latenciesMs));
  const failed = results.reduce((n, r) => n + r.failed, 0);
  const firstFailure = results.find((r) => r.firstFailure)?.firstFailure;
  const medianOf = (read: (r: ClosedLoopResult) => number | undefined): number | undefined => {
    const values = results.flatMap((r) => (read(r) === undefined ? [] : [read(r)!]));
    return values.length > 0 ? median(values) : undefined;
  };
  const serverCores = medianOf((r) => r.serverCores);
  const serverMainThreadCores = medianOf((r) => r.serverMainThreadCores);
  const serverMainThreadWaitingCores = medianOf((r) => r.serverMainThreadWaitingCores);
  return {
    perSecond: median(results.map((r) => (r.ok * 1000) / r.elapsedMs)),
    p50Ms: p.p50,
    p99Ms: p.p99,
    failed,
    ...(firstFailure ? { firstFailure } : {}),
    ...(serverCores !== undefined ? { serverCores } : {}),
    ...(serverMainThreadCores !== undefined ? { serverMainThreadCores } : {}),
    ...(serverMainThreadWaitingCores !== undefined ? { serverMainThreadWaitingCores } : {}),
    generatorCores: median(results.map((r) => r.generatorCores)),
    idleCores: median(results.map((r) => r.idleCores)),
    stolenCores: median(results.map((r) => r.stolenCores)),
    kernelThreadCores: median(results.map((r) => r.kernelThreadCores)),
    ...busiestOf(results.flatMap((r) => (r.busiestKernelThread === undefined ? [] : [r.busiestKernelThread]))),
  };
}

/** The kernel thread family that was the busiest in the most rounds. */
function busiestOf(names: readonly string[]): { busiestKernelThread?: string } {
  const rounds = new Map<string, number>();
  for (const name of names) rounds.set(name, (rounds.get(name) ?? 0) + 1);
  const [first] = [...rounds].sort((a, b) => b[1] - a[1]);
  return first === undefined ? {} : { busiestKernelThread: first[0] };
}

/** "12,345 req/s; p50 1.23 ms, p99 45.6 ms" (plus failures, if any). */
export function describeThroughput(t: Throughput): string {
  return `${rate(t.perSecond)} req/s; p50 ${ms(t.p50Ms)} ms, p99 ${ms(t.p99Ms)} ms${t.failed ? `; ${t.failed} failed` : ''}`;
}

/** Notes failed requests as a problem of the run, and where the CPU went as a detail. */
export function note(ctx: E2eContext, workload: string, t: Throughput): void {
  if (t.failed > 0) ctx.problems.push(`${workload}: ${t.failed} requests failed, first: ${t.firstFailure}`);
  const server = describeServerCpu(t, (cores) => `${Math.round((cores * 1e6) / t.perSecond)} µs CPU per request`);
  const generator = `the load generator ${t.generatorCores.toFixed(2)} cores`;
  const bounds = cpuBounds(t);
  ctx.notes.push(
    `${workload}: ${server === undefined ? generator : `${server}, ${generator}`}; ${describeMachine(t)} (medians over rounds, while the clock ran)` +
      (bounds === undefined ? '.' : `; ${bounds}.`),
  );
}

/**
 * The rates that the CPU measured per request allows on this machine: with every core busy (the
 * server and the load generator together, none idle) and with the server's main thread busy
 * throughout. A goal above the first cannot be met here at these costs, however the work were
 * spread over threads; a goal above the second alone needs the main thread's share cut or moved.
 * "at these costs per request, 2 cores allow at most 9,669 req/s, the server's main thread 8,833"
 */
export function cpuBounds(t: Throughput, cores = availableParallelism()): string | undefined {
  if (t.serverCores === undefined || t.perSecond <= 0) return undefined;
  const machine = (cores * t.perSecond) / (t.serverCores + t.generatorCores);
  const mainThread = t.serverMainThreadCores === undefined ? '' : `, the server's main thread ${rate(t.perSecond / t.serverMainThreadCores)}`;
  return `at these costs per request, ${cores} cores allow at most ${rate(machine)} req/s${mainThread}`;
}

/** A closed-loop job of the settings' round length against the context's target. */
export function roundJob(ctx: E2eContext, concurrency: number, pattern: ClosedLoopJob['pattern'], durationMs = ctx.settings.roundMs): ClosedLoopJob {
  return { kind: 'closed-loop', target: ctx.target, concurrency, pattern, durationMs, maxRequests: Number.MAX_SAFE_INTEGER };
}
