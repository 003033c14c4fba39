/**
 * What the kernel's DAMON is set to do on this machine, read from its sysfs interface, for the
 * results' machine description. On this project's VMs a DAMON pageout scheme (kdamond.0) takes one
 * of the two CPUs for 10-70 ms at a time under the benchmark's load, and the watch figures' tails
 * follow it: switched off for one diagnostic pair of runs, the HTTP/2 watch p99 fell from 55-98 ms to
 * 23-27 ms (bench/RESULTS.md, eighteenth session). The benchmark leaves it as it is (the kernel is
 * the machine's, not the project's) and says that it ran.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the kernel lists its DAMON threads. */
export const DAMON_SYSFS = '/sys/kernel/mm/damon/admin/kdamonds';

/** One running DAMON context: what it watches, how often, and what its schemes do. */
export interface DamonContext {
  /** `vaddr`, `fvaddr` or `paddr` (virtual address spaces of processes, or all physical memory). */
  readonly operations: string;
  readonly sampleMs: number;
  readonly aggregationMs: number;
  readonly schemes: readonly DamonScheme[];
}

export interface DamonScheme {
  /** e.g. `pageout`, `lru_prio`, `stat`. */
  readonly action: string;
  /** Regions left alone for at least this long qualify (age in aggregation intervals, as ms). */
  readonly minAgeMs: number;
  /** The CPU time the scheme may take per quota interval; 0 is unlimited. */
  readonly quotaMs: number;
  readonly quotaIntervalMs: number;
}

/** The contexts of every DAMON thread that is on; empty where there is no DAMON or it is off. */
export function runningDamonContexts(root = DAMON_SYSFS): DamonContext[] {
  const contexts: DamonContext[] = [];
  for (const kdamond of entries(root)) {
    const dir = join(root, kdamond);
    if (read(join(dir, 'state')) !== 'on') continue;
    for (const context of entries(join(dir, 'contexts'))) contexts.push(readContext(join(dir, 'contexts', context)));
  }
  return contexts;
}

/** One sentence for the results, or undefined when no DAMON thread runs. */
export function describeDamon(contexts: readonly DamonContext[]): string | undefined {
  if (contexts.length === 0) return undefined;
  const parts = contexts.map((c) => {
    const space = c.operations === 'paddr' ? 'all physical memory' : `${c.operations} address spaces`;
    const schemes = c.schemes.map((s) => {
      const quota = s.quotaMs > 0 ? `, up to ${s.quotaMs} ms of CPU per ${s.quotaIntervalMs === 1000 ? 'second' : seconds(s.quotaIntervalMs)}` : '';
      return `${s.action} of regions idle for ${seconds(s.minAgeMs)}${quota}`;
    });
    return `${space}, a sample every ${seconds(c.sampleMs)}${schemes.length > 0 ? `; ${schemes.join('; ')}` : ''}`;
  });
  return `The kernel's DAMON was on (${parts.join('. ')}); its thread, kdamond, runs on the same CPUs as the benchmark (its share is in Details).`;
}

function readContext(dir: string): DamonContext {
  const intervals = join(dir, 'monitoring_attrs', 'intervals');
  const aggregationMs = number(join(intervals, 'aggr_us')) / 1000;
  const schemes = entries(join(dir, 'schemes')).map((scheme): DamonScheme => {
    const s = join(dir, 'schemes', scheme);
    return {
      action: read(join(s, 'action')) ?? 'unknown',
      minAgeMs: number(join(s, 'access_pattern', 'age', 'min')) * aggregationMs,
      quotaMs: number(join(s, 'quotas', 'ms')),
      quotaIntervalMs: number(join(s, 'quotas', 'reset_interval_ms')),
    };
  });
  return { operations: read(join(dir, 'operations')) ?? 'unknown', sampleMs: number(join(intervals, 'sample_us')) / 1000, aggregationMs, schemes };
}

/** The numbered entries of a sysfs list directory (0, 1, ...), in order; none when it cannot be read. */
function entries(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(a) - Number(b));
  } catch {
    return [];
  }
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function number(file: string): number {
  const value = Number(read(file));
  return Number.isFinite(value) ? value : 0;
}

/** `ms` as "0.5 s", "60 s", "2 min". */
function seconds(ms: number): string {
  if (ms >= 120_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Number((ms / 1000).toPrecision(3))} s`;
}
