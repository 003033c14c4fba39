/**
 * Resident memory: the VmRSS of a Capstan whose store holds 100,000 ConfigMaps of 1 KiB (loaded
 * through the API by many clients, on a server that did nothing else), once it has been idle a
 * few seconds and full garbage collections were forced, against the objects' own compact JSON.
 */
import type { E2eContext } from '../e2e-context.js';
import { loadedStore, storeCensus } from '../fixtures.js';
import type { ResultRow } from '../report.js';
import { describeResident, describeSplit, readResidentMemory } from './resident-memory.js';
import type { Workload } from './workload.js';

const GOAL_RATIO = 2.5;

export const memoryWorkload: Workload = {
  name: 'memory',
  ownServerOnly: true,
  prepare: loadedStore,
  describe: (s) =>
    `memory: a second Capstan (own data directory) loaded with ${s.storeObjects.toLocaleString('en-US')} ConfigMaps in all (POSTs by ${s.bulkClients} clients), then ${s.settleMs / 1000} s idle (VmRSS read: "before a forced GC"), ` +
    'then two full garbage collections forced through the inspector (switched on by SIGUSR1 only now) and 1 s, then VmRSS of the server process ' +
    '(/proc/<pid>/status) again: the figure, divided by the sum of every ConfigMap\'s compact JSON as listed (paged, 1,000 per page, read after the RSS).',
  async run(ctx: E2eContext): Promise<ResultRow[]> {
    const loaded = await loadedStore(ctx);
    const memory = await readResidentMemory(loaded, loaded.server.capstan!);
    ctx.notes.push(`memory after loading: ${describeSplit(memory)}.`);
    const census = await storeCensus(loaded);
    const ratio = memory.settledBytes / census.jsonBytes;
    return [
      {
        workload: `resident memory, ${census.objects.toLocaleString('en-US')} objects`,
        figure: describeResident(memory, census.jsonBytes),
        goal: `≤ ${GOAL_RATIO}x the JSON`,
        met: ratio <= GOAL_RATIO,
      },
    ];
  },
};
