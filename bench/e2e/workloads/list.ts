/**
 * List: all ConfigMaps of a namespace holding 10,000, as JSON, in one page and in pages of 500 (what
 * informers and kubectl ask for). Sequential requests on one keep-alive connection; the time runs
 * to the last byte of the last page.
 */
import type { E2eContext } from '../e2e-context.js';
import { listData } from '../fixtures.js';
import type { ResultRow } from '../report.js';
import { describeList, listMedianMs, noteListCpu } from './list-figure.js';
import type { Workload } from './workload.js';

const GOAL_MS = 50;

export const listWorkload: Workload = {
  name: 'list',
  ownServerOnly: false,
  prepare: listData,
  describe: (s) =>
    `list: GET of all ConfigMaps in a namespace of ${s.listObjects.toLocaleString('en-US')} (plus its kube-root-ca.crt where the server makes one), JSON, ` +
    `in one page and following continue tokens in pages of ${s.pageSize}; one untimed run checks the item count, then ${s.listRuns} timed runs (median), ` +
    'from the request to the last byte on one keep-alive connection (the closed loop\'s lean HTTP/1.1 client, which counts body bytes without keeping them).',
  async run(ctx: E2eContext): Promise<ResultRow[]> {
    const namespace = await listData(ctx);
    const path = `/api/v1/namespaces/${namespace}/configmaps`;
    const base = { kind: 'list', target: ctx.target, path, accept: 'application/json', runs: ctx.settings.listRuns, ...ctx.serverProcess } as const;
    const whole = await ctx.load.run(base);
    const paged = await ctx.load.run({ ...base, pageSize: ctx.settings.pageSize });
    const objects = ctx.settings.listObjects.toLocaleString('en-US');
    noteListCpu(ctx, `list ${objects} ConfigMaps, one page`, whole);
    noteListCpu(ctx, `list ${objects} ConfigMaps, pages of ${ctx.settings.pageSize}`, paged);
    return [
      {
        workload: `list ${objects} ConfigMaps, one page`,
        figure: describeList(whole),
        goal: `≤ ${GOAL_MS} ms`,
        met: listMedianMs(whole) <= GOAL_MS,
      },
      { workload: `list ${objects} ConfigMaps, pages of ${ctx.settings.pageSize}`, figure: describeList(paged) },
    ];
  },
};
