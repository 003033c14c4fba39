/**
 * The e2e results as a console table and as the markdown of its RESULTS.md section: one row per
 * figure, with its ceiling, the ratio to it, the goal and the verdict.
 */
import type { MachineInfo } from '../run.js';
import { percent } from './format.js';

/** One measured figure. */
export interface ResultRow {
  readonly workload: string;
  /** The figure as written (e.g. "12,345 req/s; p50 2.1 ms, p99 9.8 ms"). */
  readonly figure: string;
  readonly ceiling?: string;
  /** The figure divided by its ceiling. */
  readonly ratio?: number;
  readonly goal?: string;
  /** Undefined: no goal for this figure, or it could not be measured. */
  readonly met?: boolean;
}

/** The run's circumstances, written above the table. */
export interface RunFacts {
  readonly machine: MachineInfo;
  readonly target: string;
  readonly quick: boolean;
  readonly loadAverageStart: readonly number[];
  readonly loadAverageEnd: readonly number[];
  readonly elapsedSeconds: number;
  /** What else ran on the machine that the figures include (the kernel's DAMON), when anything. */
  readonly machineNote?: string;
  /** How each workload was run, one line each. */
  readonly method: readonly string[];
  readonly notes: readonly string[];
  readonly problems: readonly string[];
}

const HEADER = ['workload', 'figure', 'ceiling', 'ratio', 'goal', 'verdict'] as const;

function cells(row: ResultRow): string[] {
  const verdict = row.goal === undefined ? '' : row.met === undefined ? 'not measured' : row.met ? 'met' : 'MISSED';
  return [row.workload, row.figure, row.ceiling ?? '', row.ratio === undefined ? '' : percent(row.ratio), row.goal ?? '', verdict];
}

/** A fixed-width table for the console. */
export function consoleTable(rows: readonly ResultRow[]): string {
  const table = [[...HEADER], ...rows.map(cells)];
  const widths = HEADER.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  return table.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

const loads = (l: readonly number[]): string => l.map((x) => x.toFixed(2)).join(', ');

/** The RESULTS.md section. */
export function markdown(rows: readonly ResultRow[], facts: RunFacts): string {
  const m = facts.machine;
  const escape = (s: string): string => s.replaceAll('|', '\\|');
  const missed = rows.filter((r) => r.met === false).map((r) => r.workload);
  return [
    '## End to end (`npm run bench e2e`)',
    '',
    `Run on ${m.date} against ${facts.target}${facts.quick ? ' (quick run)' : ''}: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB memory, Node ${m.node}; took ${Math.round(facts.elapsedSeconds)} s.`,
    `The machine is shared: load average ${loads(facts.loadAverageStart)} (1, 5, 15 min) at the start, ${loads(facts.loadAverageEnd)} at the end. Server, load generator and ceilings all ran on these ${m.cpus} CPUs.`,
    ...(facts.machineNote ? [facts.machineNote] : []),
    '',
    `| ${HEADER.join(' | ')} |`,
    '|---|---|---|---:|---|---|',
    ...rows.map((r) => `| ${cells(r).map(escape).join(' | ')} |`),
    '',
    missed.length === 0 ? 'Every goal measured was met.' : `Goals missed: ${missed.join('; ')}.`,
    '',
    'How:',
    '',
    ...facts.method.map((line) => `- ${line}`),
    ...(facts.notes.length > 0 ? ['', 'Details:', '', ...facts.notes.map((n) => `- ${n}`)] : []),
    ...(facts.problems.length > 0 ? ['', 'Problems:', '', ...facts.problems.map((p) => `- ${p}`)] : []),
  ].join('\n');
}
