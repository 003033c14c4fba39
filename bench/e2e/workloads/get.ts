/**
 * Get by name: closed-loop GETs of the list namespace's ConfigMaps, cycling through all names,
 * over HTTP/1.1 keep-alive (the goal) and over HTTP/2 (one connection, as client-go). Ceiling: bare
 * Node servers answering the same body, byte for byte, under the same load; bare and server
 * rounds alternate, so a busy moment on the shared machine hits both.
 */
import type { E2eContext } from '../e2e-context.js';
import { listData, listDataGets } from '../fixtures.js';
import { ms, rate } from '../format.js';
import { sendOnce } from '../https-client.js';
import type { ClosedLoopJob, ClosedLoopResult } from '../jobs.js';
import type { ResultRow } from '../report.js';
import { startBareServer } from '../bare-server-process.js';
import type { Target } from '../target.js';
import { describeThroughput, note, roundJob, runRound, summarize, type Throughput } from './throughput.js';
import type { Workload } from './workload.js';

const GOAL_RATIO = 0.6;

/** Warms both up, then alternates rounds of the bare server and the server under test. */
async function alternate(ctx: E2eContext, bare: ClosedLoopJob, server: ClosedLoopJob, barePid: number): Promise<{ ceiling: Throughput; figure: Throughput }> {
  await ctx.load.run({ ...bare, durationMs: ctx.settings.warmupMs });
  await ctx.load.run({ ...server, durationMs: ctx.settings.warmupMs });
  const bareRounds: ClosedLoopResult[] = [];
  const serverRounds: ClosedLoopResult[] = [];
  for (let round = 0; round < ctx.settings.rounds; round++) {
    bareRounds.push(await runRound(ctx, bare, barePid));
    serverRounds.push(await runRound(ctx, server));
  }
  return { ceiling: summarize(bareRounds), figure: summarize(serverRounds) };
}

function row(ctx: E2eContext, label: string, bareName: string, m: { ceiling: Throughput; figure: Throughput }, withGoal: boolean): ResultRow {
  note(ctx, label, m.figure);
  note(ctx, `${label}, bare server`, m.ceiling);
  const ratio = m.figure.perSecond / m.ceiling.perSecond;
  // Both loads are often limited by the load generator on this machine: CPU per request compares the servers themselves.
  const cpu = (t: Throughput): number | undefined => (t.serverCores === undefined ? undefined : (t.serverCores * 1e6) / t.perSecond);
  const [server, bare] = [cpu(m.figure), cpu(m.ceiling)];
  const cpuText = server !== undefined && bare !== undefined ? `; server CPU ${Math.round(server)} µs/req (bare ${Math.round(bare)})` : '';
  return {
    workload: label,
    figure: describeThroughput(m.figure) + cpuText,
    ceiling: `${rate(m.ceiling.perSecond)} req/s ${bareName} (p99 ${ms(m.ceiling.p99Ms)} ms)`,
    ratio,
    ...(withGoal ? { goal: `≥ ${GOAL_RATIO * 100}% of bare`, met: ratio >= GOAL_RATIO && m.figure.failed === 0 } : {}),
  };
}

export const getWorkload: Workload = {
  name: 'get',
  ownServerOnly: false,
  prepare: listData,
  describe: (s) =>
    `get: GET of a ConfigMap by name by ${s.getClients} closed-loop clients cycling over ${s.listObjects.toLocaleString('en-US')} names, ` +
    `over HTTP/1.1 (a keep-alive connection per client) and over HTTP/2 (one connection, a stream per client); ${s.rounds} rounds of ${s.roundMs / 1000} s (median). ` +
    'Ceiling: bare node:https and node:http2 servers (own process, ECDSA P-256, client certificate requested) returning the same response body, same clients, rounds alternating with the server\'s.',
  async run(ctx: E2eContext): Promise<ResultRow[]> {
    const { settings } = ctx;
    const namespace = await listData(ctx);
    const pattern = listDataGets(namespace, settings.listObjects);
    const sample = await sendOnce(ctx.target, { method: 'GET', path: `/api/v1/namespaces/${namespace}/configmaps/cm-0000000`, headers: { Accept: 'application/json' } });
    if (sample.status !== 200) throw new Error(`get cm-0000000: HTTP ${sample.status}`);
    const bare = await startBareServer(sample.text);
    try {
      const job = (target: Target, protocol: 'http/1.1' | 'h2'): ClosedLoopJob => ({ ...roundJob(ctx, settings.getClients, pattern), target, protocol });
      const http1 = await alternate(ctx, job(bare.target, 'http/1.1'), job(ctx.target, 'http/1.1'), bare.pid);
      const h2 = await alternate(ctx, job(bare.h2Target, 'h2'), job(ctx.target, 'h2'), bare.pid);
      return [
        row(ctx, `get by name, ${settings.getClients} clients, HTTP/1.1`, 'bare node:https', http1, true),
        row(ctx, `get by name, ${settings.getClients} streams, HTTP/2`, 'bare node:http2', h2, false),
      ];
    } finally {
      await bare.stop();
    }
  },
};
