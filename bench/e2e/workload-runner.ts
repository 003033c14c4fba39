/**
 * Runs the selected workloads one after the other: prepare (untimed), then measure, noting what
 * the server's CPU did meanwhile and, when profiling, the window of the profile that belongs to
 * the workload. A workload that fails becomes a row and a problem; the run goes on.
 */
import type { CapstanProcess } from './capstan-process.js';
import type { E2eContext } from './e2e-context.js';
import { now } from './https-client.js';
import type { ResultRow } from './report.js';
import type { Workload } from './workloads/workload.js';

/** The monotonic clock in microseconds: V8's CPU profiles stamp their samples with it. */
function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** Wall time, server CPU and profile window of one measurement. */
class Span {
  private readonly started = now();
  private readonly windowStart = monotonicMicros();
  private readonly server: CapstanProcess | undefined;
  private readonly cpuBefore: number | undefined;

  constructor(private readonly ctx: E2eContext) {
    this.server = ctx.server.capstan;
    this.cpuBefore = this.server?.cpuSeconds();
  }

  get seconds(): number {
    return (now() - this.started) / 1000;
  }

  /**
   * Prints the profile window and, for a workload that loads the server under test, notes the
   * server's CPU (if it is still the same process: restarts replace it).
   */
  finish(workload: Workload): void {
    const { ctx, server, cpuBefore } = this;
    const name = workload.name;
    console.log(`e2e: ${name} took ${this.seconds.toFixed(1)} s`);
    if (ctx.settings.cpuProfileDir && server) console.log(`e2e: profile of pid ${server.pid} during ${name}: --window ${this.windowStart}-${monotonicMicros()}`);
    // Below half a second (a probe that found apply unsupported) the average says nothing.
    if (!workload.ownServerOnly && this.seconds >= 0.5 && server && cpuBefore !== undefined && ctx.server.capstan === server) {
      ctx.notes.push(`${name}: the server used ${((server.cpuSeconds() - cpuBefore) / this.seconds).toFixed(2)} cores on average over the workload's ${this.seconds.toFixed(1)} s.`);
    }
  }
}

async function runOne(ctx: E2eContext, workload: Workload): Promise<ResultRow[]> {
  console.log(`e2e: ${workload.name} ...`);
  ctx.method.push(workload.describe(ctx.settings));
  try {
    if (workload.prepare) {
      const preparing = new Span(ctx);
      await workload.prepare(ctx);
      console.log(`e2e: ${workload.name}: data prepared in ${preparing.seconds.toFixed(1)} s`);
    }
    const span = new Span(ctx);
    const rows = await workload.run(ctx);
    for (const row of rows) console.log(`e2e:   ${row.workload}: ${row.figure}`);
    span.finish(workload);
    return rows;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    console.error(`e2e: ${workload.name} failed: ${message}`);
    ctx.problems.push(`${workload.name}: failed: ${message}`);
    return [{ workload: workload.name, figure: `failed: ${message.split('\n')[0]!.slice(0, 160)}` }];
  }
}

/** Runs `workloads` that the settings select, in order; returns their rows. */
export async function runWorkloads(ctx: E2eContext, workloads: readonly Workload[]): Promise<ResultRow[]> {
  const rows: ResultRow[] = [];
  for (const workload of workloads) {
    if (!ctx.settings.only.has(workload.name)) continue;
    if (workload.ownServerOnly && !ctx.ownsServer) {
      rows.push({ workload: workload.name, figure: 'not measured: needs a Capstan the benchmark starts (not with --kubeconfig)' });
      continue;
    }
    rows.push(...(await runOne(ctx, workload)));
  }
  return rows;
}
