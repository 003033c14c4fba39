/**
 * The end-to-end benchmark: the whole server over HTTPS with keep-alive, load from separate
 * processes, each figure beside its ceiling measured in the same run. By default it starts Capstan
 * on the embedded store in a scratch directory; `--kubeconfig PATH` targets another server on this
 * machine instead (startup and memory are then not measured). Options: `--only a,b` runs some
 * workloads; `--cpu-prof-dir DIR` runs Capstan under `node --cpu-prof`; `--server-node-args
 * "ARGS"` gives node more options when it starts Capstan (V8 flags, for an experiment: such a run
 * does not rewrite RESULTS.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Benchmark, BenchmarkContext } from '../run.js';
import { ensureCurrentBundle } from './capstan-process.js';
import { describeDamon, runningDamonContexts } from './damon.js';
import { E2eContext } from './e2e-context.js';
import { now } from './https-client.js';
import { LoadGenerator } from './load-generator-client.js';
import { consoleTable, markdown, type ResultRow, type RunFacts } from './report.js';
import { ServerHandle } from './server-handle.js';
import { capstanStartOptions, e2eSettings, WORKLOAD_NAMES, type E2eSettings } from './settings.js';
import { targetFromKubeconfig } from './target.js';
import { applyWorkload } from './workloads/apply.js';
import { createWorkload } from './workloads/create.js';
import { getWorkload } from './workloads/get.js';
import { listWorkload } from './workloads/list.js';
import { memoryWorkload } from './workloads/memory.js';
import { emptyStartupWorkload, loadedStartupWorkload } from './workloads/startup.js';
import { tableListWorkload } from './workloads/table-list.js';
import { watchWorkload } from './workloads/watch.js';
import type { Workload } from './workloads/workload.js';
import { runWorkloads } from './workload-runner.js';

/** In this order; memory and the loaded startup run on a second server started for them, last. */
const WORKLOADS: readonly Workload[] = [
  emptyStartupWorkload,
  createWorkload,
  getWorkload,
  listWorkload,
  tableListWorkload,
  applyWorkload,
  watchWorkload,
  memoryWorkload,
  loadedStartupWorkload,
];

async function openServer(settings: E2eSettings, scratch: string): Promise<ServerHandle> {
  if (settings.kubeconfig) return ServerHandle.external(targetFromKubeconfig(settings.kubeconfig));
  ensureCurrentBundle();
  return ServerHandle.own(capstanStartOptions(settings, join(scratch, 'store')));
}

function printSummary(rows: readonly ResultRow[], facts: RunFacts): void {
  const loads = (l: readonly number[]): string => l.map((x) => x.toFixed(2)).join(', ');
  console.log(`\n${consoleTable(rows)}\n`);
  for (const note of facts.notes) console.log(`note: ${note}`);
  for (const problem of facts.problems) console.log(`problem: ${problem}`);
  console.log(`load average ${loads(facts.loadAverageStart)} at the start, ${loads(facts.loadAverageEnd)} at the end; ${Math.round(facts.elapsedSeconds)} s`);
  if (facts.machineNote) console.log(facts.machineNote);
}

export const e2eBenchmark: Benchmark = {
  name: 'e2e',
  description: 'the whole server over HTTPS: create, get, list, Table, apply, watch fan-out, startup, memory; each beside its ceiling',
  async run(context: BenchmarkContext): Promise<void> {
    const settings = e2eSettings(context.quick, context.options);
    const started = now();
    const loadAverageStart = loadavg();
    // Read at the start: DAMON's settings do not change during a run (unless someone changes them).
    const damon = describeDamon(runningDamonContexts());
    const scratch = mkdtempSync(join(tmpdir(), 'capstan-bench-e2e-'));
    const load = LoadGenerator.start('load');
    const writer = LoadGenerator.start('writer');
    let server: ServerHandle | undefined;
    let ctx: E2eContext | undefined;
    try {
      server = await openServer(settings, scratch);
      // Against someone else's server, names unique to this run; Capstan's scratch store is ours.
      const prefix = settings.kubeconfig ? `bench-${Date.now().toString(36)}` : 'bench';
      ctx = new E2eContext(settings, server, load, writer, scratch, prefix);
      const rows = await runWorkloads(ctx, WORKLOADS);
      if (settings.kubeconfig) await ctx.deleteNamespaces();
      const facts: RunFacts = {
        machine: context.machine,
        target: settings.kubeconfig ? `the server of ${settings.kubeconfig}` : 'Capstan on the embedded store (a new data directory under the system temp dir)',
        quick: settings.quick,
        loadAverageStart,
        loadAverageEnd: loadavg(),
        elapsedSeconds: (now() - started) / 1000,
        ...(damon ? { machineNote: damon } : {}),
        method: ctx.method,
        notes: ctx.notes,
        problems: ctx.problems,
      };
      printSummary(rows, facts);
      // Only a complete, unprofiled run against Capstan as it ships (no extra node options) is a reference result.
      if (settings.only.size === WORKLOAD_NAMES.length && !settings.kubeconfig && !settings.cpuProfileDir && !settings.serverNodeArgs) await context.writeResults(markdown(rows, facts));
    } finally {
      await ctx?.stopExtraServers();
      await server?.stop();
      await Promise.all([load.close(), writer.close()]);
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};
