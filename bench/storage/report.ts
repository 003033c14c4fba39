/**
 * The storage benchmark's results as a console table and as the markdown of its RESULTS.md
 * section, with the project's goals checked against them.
 */
import type { MachineInfo } from '../run.js';
import type { ListLatency } from './list-latency.js';
import type { PointReads } from './point-reads.js';
import type { WatchLatency } from './watch-latency.js';
import type { WriteThroughput } from './write-throughput.js';

/** Everything measured on one backend (absent parts: that workload did not run). */
export interface BackendResults {
  readonly backend: string;
  readonly writes: readonly WriteThroughput[];
  readonly reads?: PointReads;
  readonly list?: ListLatency;
  readonly watch?: WatchLatency;
  /** The same watchers served by a watch cache over the store (one store watch), for comparison. */
  readonly cachedWatch?: WatchLatency;
  /** Why the backend was skipped or stopped early. */
  readonly problem?: string;
}

export interface Settings {
  readonly valueBytes: number;
  readonly writeSeconds: number;
  readonly readSeconds: number;
  readonly readers: number;
  readonly watchEvents: number;
}

const GOAL_EMBEDDED_WRITES = 20_000;
const GOAL_RATIO = 3;
const GOAL_WATCH_P99_MS = 20;

type Row = readonly [string, ...string[]];

function rows(results: readonly BackendResults[]): Row[] {
  const cell = (r: BackendResults, pick: (r: BackendResults) => string | undefined) => pick(r) ?? '—';
  const concurrencies = [...new Set(results.flatMap((r) => r.writes.map((w) => w.concurrency)))].sort((a, b) => a - b);
  const out: Row[] = [];
  for (const c of concurrencies) {
    const write = (r: BackendResults) => r.writes.find((w) => w.concurrency === c);
    out.push([`writes/s, ${c} writer${c === 1 ? '' : 's'}`, ...results.map((r) => cell(r, (x) => fmtRate(write(x)?.writesPerSecond)))]);
    out.push([
      `  write latency p50 / p99 (ms)`,
      ...results.map((r) => cell(r, (x) => pair(write(x)?.latencyP50Ms, write(x)?.latencyP99Ms))),
    ]);
  }
  const readers = results.find((r) => r.reads)?.reads?.concurrency;
  out.push([`point reads/s, ${readers ?? '?'} readers`, ...results.map((r) => cell(r, (x) => fmtRate(x.reads?.readsPerSecond)))]);
  out.push([`  read latency p50 / p99 (ms)`, ...results.map((r) => cell(r, (x) => pair(x.reads?.latencyP50Ms, x.reads?.latencyP99Ms)))]);
  const objects = results.find((r) => r.list)?.list?.objects;
  out.push([`list of ${objects ?? '?'} objects, median / max (ms)`, ...results.map((r) => cell(r, (x) => pair(x.list?.medianMs, x.list?.maxMs)))]);
  const watchers = results.find((r) => r.watch)?.watch?.watchers;
  out.push([
    `watch delivery to all ${watchers ?? '?'} watchers, p50 / p99 (ms)`,
    ...results.map((r) => cell(r, (x) => pair(x.watch?.p50Ms, x.watch?.p99Ms))),
  ]);
  out.push([
    `  the same from the write's acknowledgement (< 0: delivered before it)`,
    ...results.map((r) => cell(r, (x) => pair(x.watch?.afterAckP50Ms, x.watch?.afterAckP99Ms))),
  ]);
  out.push([`  events lost`, ...results.map((r) => cell(r, (x) => x.watch?.lost.toString()))]);
  out.push([
    `the same ${watchers ?? '?'} watchers through the watch cache, p50 / p99 (ms)`,
    ...results.map((r) => cell(r, (x) => pair(x.cachedWatch?.p50Ms, x.cachedWatch?.p99Ms))),
  ]);
  out.push([`  events lost`, ...results.map((r) => cell(r, (x) => x.cachedWatch?.lost.toString()))]);
  return out;
}

/** The goals, each with its verdict. */
export function goals(results: readonly BackendResults[]): string[] {
  const at256 = (name: string) => results.find((r) => r.backend === name)?.writes.find((w) => w.concurrency === 256)?.writesPerSecond;
  const sqlite = at256('sqlite');
  const etcd = at256('etcd');
  const verdict = (ok: boolean | undefined) => (ok === undefined ? 'NOT MEASURED' : ok ? 'MET' : 'MISSED');
  const lines = [
    `embedded store >= ${fmtRate(GOAL_EMBEDDED_WRITES)} durable writes/s with 256 writers: ${verdict(sqlite === undefined ? undefined : sqlite >= GOAL_EMBEDDED_WRITES)} (${fmtRate(sqlite)})`,
    `embedded store >= ${GOAL_RATIO}x the etcd backend with 256 writers: ${verdict(sqlite === undefined || etcd === undefined ? undefined : sqlite >= GOAL_RATIO * etcd)} (${sqlite !== undefined && etcd !== undefined ? `${(sqlite / etcd).toFixed(1)}x` : '—'})`,
  ];
  for (const r of results) {
    const p99 = r.watch?.p99Ms;
    lines.push(
      `${r.backend}: an event reaches all ${r.watch?.watchers ?? 1000} watchers within ${GOAL_WATCH_P99_MS} ms p99: ${verdict(p99 === undefined ? undefined : p99 <= GOAL_WATCH_P99_MS && r.watch?.lost === 0)} (${fmtMs(p99)} ms)`,
    );
  }
  return lines;
}

/** A fixed-width table for the console. */
export function consoleTable(results: readonly BackendResults[]): string {
  const table: Row[] = [['', ...results.map((r) => r.backend)], ...rows(results)];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const lines = table.map((row) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('   '));
  const problems = results.filter((r) => r.problem).map((r) => `${r.backend}: ${r.problem}`);
  return [...lines, '', ...goals(results), ...problems].join('\n');
}

/** The RESULTS.md section. */
export function markdown(
  results: readonly BackendResults[],
  machine: MachineInfo,
  settings: Settings,
  elapsedSeconds: number,
  /** 1-minute load average when the run started and ended: other work on the machine skews it. */
  load: { readonly before: number; readonly after: number },
): string {
  const header = `| | ${results.map((r) => r.backend).join(' | ')} |`;
  const rule = `|---|${results.map(() => '---:').join('|')}|`;
  // Indented rows are details of the row above; markdown tables drop leading spaces.
  const body = rows(results).map(([name, ...cells]) => `| ${name.startsWith('  ') ? `&nbsp;&nbsp;${name.trim()}` : name} | ${cells.join(' | ')} |`);
  const problems = results.filter((r) => r.problem).map((r) => `- ${r.backend}: ${r.problem}`);
  return [
    '## Storage backends (`npm run bench storage`)',
    '',
    `Run on ${machine.date}: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB memory, Node ${machine.node}; took ${Math.round(elapsedSeconds)} s; 1-minute load average ${load.before.toFixed(1)} at the start, ${load.after.toFixed(1)} at the end (above the CPU count means other processes competed for the machine).`,
    `Values of ${settings.valueBytes} bytes; each write level runs ${settings.writeSeconds} s, reads ${settings.readSeconds} s with ${settings.readers} readers; watch latency over ${settings.watchEvents} events written one at a time.`,
    'sqlite: SqliteStorage with its defaults (worker-thread writer, group commit, fsync per commit). etcd: one local etcd member (fsync per commit) through EtcdStorage, in the same process as the benchmark.',
    'Watch rows: 1,000 watches opened directly on the backend (for etcd: 1,000 etcd watch streams, each event decoded 1,000 times in this process), and, for comparison, the same 1,000 watchers on a watch cache over the backend, which is how the server serves them (one store watch per resource type).',
    '',
    header,
    rule,
    ...body,
    '',
    'Goals:',
    '',
    ...goals(results).map((g) => `- ${g}`),
    ...(problems.length > 0 ? ['', 'Problems:', '', ...problems] : []),
  ].join('\n');
}

function fmtRate(value: number | undefined): string | undefined {
  return value === undefined || Number.isNaN(value) ? undefined : Math.round(value).toLocaleString('en-US');
}

function fmtMs(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '—';
  return value < 10 ? value.toFixed(2) : value.toFixed(1);
}

function pair(a: number | undefined, b: number | undefined): string | undefined {
  return a === undefined ? undefined : `${fmtMs(a)} / ${fmtMs(b)}`;
}
