/** A list job's result as a table figure: the median run, the slowest, and what came back. */
import { mib, ms } from '../format.js';
import type { ListResult } from '../jobs.js';
import { median } from '../../stats.js';

export function listMedianMs(result: ListResult): number {
  return median(result.runsMs);
}

export function describeList(result: ListResult): string {
  const pages = result.pages > 1 ? ` in ${result.pages} pages` : '';
  return `median ${ms(listMedianMs(result))} ms, max ${ms(Math.max(...result.runsMs))} ms; ${result.items.toLocaleString('en-US')} items${pages}, ${mib(result.bytes)}`;
}
