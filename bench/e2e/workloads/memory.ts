/**
 * Resident memory: the server's VmRSS once the store holds 100,000 ConfigMaps of 1 KiB (loaded
 * through the API by many clients) and it has been idle a few seconds, against the objects' own
 * compact JSON size as listed.
 */
import type { E2eContext } from '../e2e-context.js';
import { filledStore, storeCensus } from '../fixtures.js';
import { mib } from '../format.js';
import type { ResultRow } from '../report.js';
import type { Workload } from './workload.js';

const GOAL_RATIO = 2.5;

export const memoryWorkload: Workload = {
  name: 'memory',
  ownServerOnly: true,
  describe: (s) =>
    `memory: the store topped up to ${s.storeObjects.toLocaleString('en-US')} ConfigMaps (POSTs by ${s.bulkClients} clients), then ${s.settleMs / 1000} s idle, then VmRSS of the server process ` +
    '(/proc/<pid>/status), divided by the sum of every ConfigMap\'s compact JSON as listed (paged, 1,000 per page, read after the RSS).',
  async run(ctx: E2eContext): Promise<ResultRow[]> {
    await filledStore(ctx);
    await new Promise((r) => setTimeout(r, ctx.settings.settleMs));
    const resident = ctx.server.capstan!.residentBytes();
    const census = await storeCensus(ctx);
    const ratio = resident / census.jsonBytes;
    return [
      {
        workload: `resident memory, ${census.objects.toLocaleString('en-US')} objects`,
        figure: `${mib(resident)}, ${ratio.toFixed(2)}x their JSON (${mib(census.jsonBytes)})`,
        goal: `≤ ${GOAL_RATIO}x the JSON`,
        met: ratio <= GOAL_RATIO,
      },
    ];
  },
};
