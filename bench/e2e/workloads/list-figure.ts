/** A list job's result as a table figure (the median run, the slowest, and what came back) and as a note (the CPU it took). */
import type { E2eContext } from '../e2e-context.js';
import { mib, ms } from '../format.js';
import type { ListResult } from '../jobs.js';
import { describeCpuWhileMeasured } from '../proc-stats.js';
import { median } from '../../stats.js';

export function listMedianMs(result: ListResult): number {
  return median(result.runsMs);
}

export function describeList(result: ListResult): string {
  const pages = result.pages > 1 ? ` in ${result.pages} pages` : '';
  return `median ${ms(listMedianMs(result))} ms, max ${ms(Math.max(...result.runsMs))} ms; ${result.items.toLocaleString('en-US')} items${pages}, ${mib(result.bytes)}`;
}

/** Notes where the CPU went while the timed runs went on, to tell a slow server from a disturbed machine. */
export function noteListCpu(ctx: E2eContext, workload: string, result: ListResult): void {
  ctx.notes.push(`${workload}: ${describeCpuWhileMeasured(result)} (over the timed runs).`);
}
