/**
 * The end-to-end benchmark: the whole server over HTTPS with keep-alive, load from separate
 * processes, each figure beside its ceiling measured in the same run. By default it starts Capstan
 * on the embedded store in a scratch directory; `--kubeconfig PATH` targets another server on this
 * machine instead (startup and memory are then not measured). Options: `--only a,b` runs some
 * workloads; `--cpu-prof-dir DIR` runs Capstan under `node --cpu-prof`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Benchmark, BenchmarkContext } from '../run.js';
import { E2eContext } from './e2e-context.js';
import { now } from './https-client.js';
import { LoadGenerator } from './load-generator-client.js';
import { consoleTable, markdown, type ResultRow } from './report.js';
import { ServerHandle } from './server-handle.js';
import { e2eSettings, WORKLOAD_NAMES, type E2eSettings } from './settings.js';
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

/** In this order: the store grows as it goes, so the 100,000-object figures come last. */
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
  return ServerHandle.own({ dataDir: join(scratch, 'store'), ...(settings.cpuProfileDir ? { cpuProfileDir: settings.cpuProfileDir } : {}) });
}

/** Runs each selected workload; a failing one becomes a row and a problem, and the run goes on. */
async function runWorkloads(ctx: E2eContext): Promise<ResultRow[]> {
  const rows: ResultRow[] = [];
  for (const workload of WORKLOADS) {
    if (!ctx.settings.only.has(workload.name)) continue;
    if (workload.ownServerOnly && !ctx.ownsServer) {
      rows.push({ workload: workload.name, figure: 'not measured: needs a Capstan the benchmark starts (not with --kubeconfig)' });
      continue;
    }
    const started = now();
    const server = ctx.server.capstan;
    const cpuBefore = server?.cpuSeconds();
    console.log(`e2e: ${workload.name} ...`);
    ctx.method.push(workload.describe(ctx.settings));
    try {
      const measured = await workload.run(ctx);
      for (const row of measured) console.log(`e2e:   ${row.workload}: ${row.figure}`);
      rows.push(...measured);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      console.error(`e2e: ${workload.name} failed: ${message}`);
      ctx.problems.push(`${workload.name}: failed: ${message}`);
      rows.push({ workload: workload.name, figure: `failed: ${message.split('\n')[0]!.slice(0, 160)}` });
    }
    const seconds = (now() - started) / 1000;
    console.log(`e2e: ${workload.name} took ${seconds.toFixed(1)} s`);
    // Restarts (loaded startup) replace the process; its CPU is then not comparable.
    if (server && cpuBefore !== undefined && ctx.server.capstan === server) {
      ctx.notes.push(`${workload.name}: the server used ${((server.cpuSeconds() - cpuBefore) / seconds).toFixed(2)} cores on average over the workload's ${seconds.toFixed(0)} s (setup included).`);
    }
  }
  return rows;
}

export const e2eBenchmark: Benchmark = {
  name: 'e2e',
  description: 'the whole server over HTTPS: create, get, list, Table, apply, watch fan-out, startup, memory; each beside its ceiling',
  async run(context: BenchmarkContext): Promise<void> {
    const settings = e2eSettings(context.quick, context.options);
    const started = now();
    const loadAverageStart = loadavg();
    const scratch = mkdtempSync(join(tmpdir(), 'capstan-bench-e2e-'));
    const load = LoadGenerator.start('load');
    const writer = LoadGenerator.start('writer');
    let server: ServerHandle | undefined;
    try {
      server = await openServer(settings, scratch);
      // Against someone else's server, names unique to this run; Capstan's scratch store is ours.
      const prefix = settings.kubeconfig ? `bench-${Date.now().toString(36)}` : 'bench';
      const ctx = new E2eContext(settings, server, load, writer, scratch, prefix);
      const rows = await runWorkloads(ctx);
      if (settings.kubeconfig) await ctx.deleteNamespaces();
      const facts = {
        machine: context.machine,
        target: settings.kubeconfig ? `the server of ${settings.kubeconfig}` : 'Capstan on the embedded store (a new data directory under the system temp dir)',
        quick: settings.quick,
        loadAverageStart,
        loadAverageEnd: loadavg(),
        elapsedSeconds: (now() - started) / 1000,
        method: ctx.method,
        notes: ctx.notes,
        problems: ctx.problems,
      };
      console.log(`\n${consoleTable(rows)}\n`);
      for (const note of ctx.notes) console.log(`note: ${note}`);
      for (const problem of ctx.problems) console.log(`problem: ${problem}`);
      console.log(`load average ${loadAverageStart.map((l) => l.toFixed(2)).join(', ')} at the start, ${facts.loadAverageEnd.map((l) => l.toFixed(2)).join(', ')} at the end; ${Math.round(facts.elapsedSeconds)} s`);
      // A partial run (--only) or another server's figures would overwrite the reference results.
      if (settings.only.size === WORKLOAD_NAMES.length && !settings.kubeconfig) await context.writeResults(markdown(rows, facts));
    } finally {
      await server?.stop();
      await Promise.all([load.close(), writer.close()]);
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};
