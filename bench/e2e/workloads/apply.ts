/**
 * Server-side apply of a Deployment (`application/apply-patch+yaml`, force, one field manager) by
 * closed-loop clients over a fixed set of names: the first apply of a name creates it, later ones
 * update it. A server that refuses apply (415, or answers a new name with 404) is reported as not
 * supporting it; the run goes on.
 */
import type { E2eContext } from '../e2e-context.js';
import { sendOnce } from '../https-client.js';
import { applyDeployments } from '../objects.js';
import type { ResultRow } from '../report.js';
import { requestAt } from '../request-pattern.js';
import { describeThroughput, note, roundJob, runRound, summarize } from './throughput.js';
import type { Workload } from './workload.js';

const DEPLOYMENTS = 100;

export const applyWorkload: Workload = {
  name: 'apply',
  ownServerOnly: false,
  describe: (s) =>
    `apply: server-side apply (PATCH, application/apply-patch+yaml, force) of a Deployment with one container, by ${s.applyClients} closed-loop clients over ${DEPLOYMENTS} names; ` +
    `${s.rounds} rounds of ${s.roundMs / 1000} s (median). A probe apply first: if the server refuses it, the row says so.`,
  async run(ctx: E2eContext): Promise<ResultRow[]> {
    const workload = `server-side apply Deployment, ${ctx.settings.applyClients} clients`;
    const pattern = applyDeployments(await ctx.namespace('apply'), DEPLOYMENTS);
    const probe = await sendOnce(ctx.target, requestAt(pattern, 0));
    if (probe.status < 200 || probe.status >= 300) {
      return [{ workload, figure: `not supported (HTTP ${probe.status}: ${statusMessage(probe.text)})` }];
    }
    await ctx.load.run(roundJob(ctx, ctx.settings.applyClients, pattern, ctx.settings.warmupMs));
    const rounds = [];
    for (let round = 0; round < ctx.settings.rounds; round++) rounds.push(await runRound(ctx, roundJob(ctx, ctx.settings.applyClients, pattern)));
    const t = summarize(rounds);
    note(ctx, 'apply', t);
    return [{ workload, figure: describeThroughput(t) }];
  },
};

function statusMessage(body: string): string {
  try {
    const status = JSON.parse(body) as { message?: string };
    return (status.message ?? body).slice(0, 160);
  } catch {
    return body.slice(0, 160);
  }
}
