/**
 * Table list: the same namespace listed as kubectl asks (`kubectl get configmaps`): the Table Accept
 * header kubectl sends, as one page and in kubectl's default chunks of 500.
 */
import type { E2eContext } from '../e2e-context.js';
import { listData } from '../fixtures.js';
import type { ResultRow } from '../report.js';
import { describeList, listMedianMs, noteListCpu } from './list-figure.js';
import type { Workload } from './workload.js';

/** kubectl 1.2x's Accept for `get` with the default (human-readable) output. */
const KUBECTL_TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const GOAL_MS = 65;

export const tableListWorkload: Workload = {
  name: 'table',
  ownServerOnly: false,
  prepare: listData,
  describe: (s) =>
    `table: the list above with kubectl's Accept header (Table, meta.k8s.io/v1 then v1beta1, then JSON), in one page and in kubectl's default chunks of ${s.pageSize}; ` +
    `${s.listRuns} timed runs (median).`,
  async run(ctx: E2eContext): Promise<ResultRow[]> {
    const namespace = await listData(ctx);
    const base = { kind: 'list', target: ctx.target, path: `/api/v1/namespaces/${namespace}/configmaps`, accept: KUBECTL_TABLE_ACCEPT, runs: ctx.settings.listRuns, ...ctx.serverProcess } as const;
    const whole = await ctx.load.run(base);
    const paged = await ctx.load.run({ ...base, pageSize: ctx.settings.pageSize });
    const objects = ctx.settings.listObjects.toLocaleString('en-US');
    noteListCpu(ctx, `Table list ${objects} ConfigMaps, one page`, whole);
    noteListCpu(ctx, `Table list ${objects}, pages of ${ctx.settings.pageSize} (kubectl)`, paged);
    return [
      { workload: `Table list ${objects} ConfigMaps, one page`, figure: describeList(whole), goal: `≤ ${GOAL_MS} ms`, met: listMedianMs(whole) <= GOAL_MS },
      { workload: `Table list ${objects}, pages of ${ctx.settings.pageSize} (kubectl)`, figure: describeList(paged) },
    ];
  },
};
