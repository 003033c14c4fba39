/**
 * How big and how long: the full run (what RESULTS.md reports) and the quick smoke run, plus the
 * e2e benchmark's own options (--kubeconfig, --cpu-prof-dir, --server-node-args, --only,
 * --watch-receivers).
 */
import type { CapstanStartOptions } from './capstan-process.js';

/** Workload names, for --only. */
export const WORKLOAD_NAMES = ['startup', 'create', 'get', 'list', 'table', 'apply', 'watch', 'memory'] as const;
export type WorkloadName = (typeof WORKLOAD_NAMES)[number];

export interface E2eSettings {
  readonly quick: boolean;
  /** Target this server instead of starting Capstan. */
  readonly kubeconfig?: string;
  /** Run Capstan under `node --cpu-prof`, profiles written here. */
  readonly cpuProfileDir?: string;
  /** Options for node when it starts Capstan (`--server-node-args "--max-semi-space-size=32"`). */
  readonly serverNodeArgs?: readonly string[];
  /** Run only these workloads (they prepare the data they need). */
  readonly only: ReadonlySet<WorkloadName>;
  /** Throughput workloads: rounds (the figure is their median), each this long, after one warm-up. */
  readonly rounds: number;
  readonly roundMs: number;
  readonly warmupMs: number;
  readonly createClients: readonly number[];
  readonly getClients: number;
  readonly applyClients: number;
  /** Clients that load fixture data (not timed as a workload). */
  readonly bulkClients: number;
  readonly listObjects: number;
  readonly listRuns: number;
  readonly pageSize: number;
  readonly watchers: number;
  /** Load-generator processes the watchers are spread over (a share each). */
  readonly watchReceivers: number;
  /** Rounds of `writeSeconds` each, written back to back; the watch figure is the median round's p99. */
  readonly watchRounds: number;
  /** Writes before the timed ones, at the same rate, that every watcher receives uncounted. */
  readonly watchWarmupWrites: number;
  readonly writesPerSecond: number;
  readonly writeSeconds: number;
  /** Objects in the store for the loaded startup and the memory figure. */
  readonly storeObjects: number;
  readonly emptyStarts: number;
  readonly loadedStarts: number;
  /** Idle time before reading resident memory, for the heap to settle. */
  readonly settleMs: number;
  readonly sqliteBatch: number;
}

const FULL = {
  rounds: 5, roundMs: 2000, warmupMs: 1000, createClients: [1, 64, 256], getClients: 64, applyClients: 16, bulkClients: 256,
  listObjects: 10_000, listRuns: 10, pageSize: 500, watchers: 1000, watchReceivers: 1, watchRounds: 3, watchWarmupWrites: 50, writesPerSecond: 50, writeSeconds: 10,
  storeObjects: 100_000, emptyStarts: 5, loadedStarts: 3, settleMs: 5000, sqliteBatch: 256,
};

const QUICK: typeof FULL = {
  ...FULL,
  rounds: 1, roundMs: 1000, warmupMs: 300, listObjects: 2000, listRuns: 3, watchers: 100, watchRounds: 1, watchWarmupWrites: 10, writeSeconds: 2,
  storeObjects: 10_000, emptyStarts: 2, loadedStarts: 1, settleMs: 1000,
};

/** Settings from the dispatcher's quick flag and options; throws on an unknown --only name. */
export function e2eSettings(quick: boolean, options: ReadonlyMap<string, string>): E2eSettings {
  const only = options.get('only')?.split(',').map((s) => s.trim()).filter(Boolean) ?? [...WORKLOAD_NAMES];
  for (const name of only) {
    if (!(WORKLOAD_NAMES as readonly string[]).includes(name)) throw new Error(`--only: no workload "${name}"; there are ${WORKLOAD_NAMES.join(', ')}`);
  }
  const kubeconfig = options.get('kubeconfig');
  const cpuProfileDir = options.get('cpu-prof-dir');
  const serverNodeArgs = options.get('server-node-args')?.split(' ').filter(Boolean);
  return {
    ...(quick ? QUICK : FULL),
    quick,
    only: new Set(only as WorkloadName[]),
    ...(options.has('watch-receivers') ? { watchReceivers: positiveInteger('watch-receivers', options.get('watch-receivers')!) } : {}),
    ...(kubeconfig ? { kubeconfig } : {}),
    ...(cpuProfileDir ? { cpuProfileDir } : {}),
    ...(serverNodeArgs?.length ? { serverNodeArgs } : {}),
  };
}

function positiveInteger(option: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${option}: expected a positive whole number, got "${text}"`);
  return n;
}

/** How every Capstan of the run starts on `dataDir`: profiled, with extra node options, as the settings say. */
export function capstanStartOptions(settings: E2eSettings, dataDir: string): CapstanStartOptions {
  return {
    dataDir,
    ...(settings.cpuProfileDir ? { cpuProfileDir: settings.cpuProfileDir } : {}),
    ...(settings.serverNodeArgs ? { nodeArgs: settings.serverNodeArgs } : {}),
  };
}
