/**
 * Startup: spawn to the first passing /readyz, as a client polling every 5 ms sees it. On an empty
 * store: a new data directory (certificates generated) and a restart on it; with the store filled
 * to 100,000 objects: restarts of a server holding just those, on its data directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startCapstan } from '../capstan-process.js';
import { capstanStartOptions } from '../settings.js';
import type { E2eContext } from '../e2e-context.js';
import { loadedStore, storeCensus } from '../fixtures.js';
import { mib, ms } from '../format.js';
import type { ResultRow } from '../report.js';
import { median } from '../../stats.js';
import { describeResident, describeSplit, readResidentMemory } from './resident-memory.js';
import type { Workload } from './workload.js';

const GOAL_EMPTY_MS = 300;
const GOAL_LOADED_MS = 3000;

function startupRow(workload: string, runsMs: readonly number[], reportedMs: readonly number[], goalMs: number): ResultRow {
  const reported = reportedMs.length > 0 ? `; server's own "ready in" median ${ms(median(reportedMs))} ms` : '';
  return {
    workload,
    figure: `median ${ms(median(runsMs))} ms over ${runsMs.length} (${runsMs.map((r) => Math.round(r)).join(', ')})${reported}`,
    goal: `≤ ${goalMs.toLocaleString('en-US')} ms`,
    met: median(runsMs) <= goalMs,
  };
}

export const emptyStartupWorkload: Workload = {
  name: 'startup',
  ownServerOnly: true,
  describe: (s) =>
    `startup, empty store: ${s.emptyStarts} times, a new data directory (first start: CA and certificates generated), then a restart on it; ` +
    'each timed from spawning node with dist/capstan/main.js and the node options of its first line to the first 200 from /readyz (polled every 5 ms over one keep-alive connection). ' +
    'Every Capstan the benchmark starts gets its environment without NODE_EXTRA_CA_CERTS, which Node would read at process start (see capstan-process.ts).',
  async run(ctx: E2eContext): Promise<ResultRow[]> {
    const first: number[] = [];
    const restart: number[] = [];
    const reportedFirst: number[] = [];
    const reportedRestart: number[] = [];
    const resident: number[] = [];

    for (let run = 0; run < ctx.settings.emptyStarts; run++) {
      const dataDir = mkdtempSync(join(ctx.scratch, 'empty-'));
      try {
        const fresh = await startCapstan(capstanStartOptions(ctx.settings, dataDir));
        first.push(fresh.startupMs);
        if (fresh.reportedReadyMs !== undefined) reportedFirst.push(fresh.reportedReadyMs);
        await fresh.stop();
        const again = await startCapstan(capstanStartOptions(ctx.settings, dataDir));
        restart.push(again.startupMs);
        if (again.reportedReadyMs !== undefined) reportedRestart.push(again.reportedReadyMs);
        resident.push(again.residentBytes());
        await again.stop();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    return [
      startupRow('startup to /readyz, empty store, new data dir', first, reportedFirst, GOAL_EMPTY_MS),
      startupRow('startup to /readyz, empty store, restart', restart, reportedRestart, GOAL_EMPTY_MS),
      { workload: 'resident memory, empty store, just started', figure: mib(median(resident)) },
    ];
  },
};

export const loadedStartupWorkload: Workload = {
  name: 'startup',
  ownServerOnly: true,
  prepare: loadedStore,
  describe: (s) =>
    `startup, loaded store: the second Capstan of the memory figure (${s.storeObjects.toLocaleString('en-US')} ConfigMaps) restarted ${s.loadedStarts} times on its data directory ` +
    `(SIGTERM, wait for exit, start); timed as above. Resident memory read again after the last restart, as for the memory figure.`,
  async run(ctx: E2eContext): Promise<ResultRow[]> {
    const loaded = await loadedStore(ctx);
    const census = await storeCensus(loaded);
    const runs: number[] = [];
    const reported: number[] = [];
    for (let run = 0; run < ctx.settings.loadedStarts; run++) {
      const server = await loaded.server.restart();
      runs.push(server.startupMs);
      if (server.reportedReadyMs !== undefined) reported.push(server.reportedReadyMs);
    }
    const memory = await readResidentMemory(loaded, loaded.server.capstan!);
    ctx.notes.push(`memory after restart: ${describeSplit(memory)}.`);
    const objects = census.objects.toLocaleString('en-US');
    return [
      startupRow(`startup to /readyz, ${objects} objects`, runs, reported, GOAL_LOADED_MS),
      {
        workload: `resident memory after restart, ${objects} objects`,
        figure: describeResident(memory, census.jsonBytes),
      },
    ];
  },
};
