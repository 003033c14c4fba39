/**
 * Watch fan-out: 1,000 watches on one namespace from one resource version, in one load-generator
 * process, while a second process creates 50 ConfigMaps/s for 10 s (50,000 deliveries/s); once
 * with a connection per watch (HTTP/1.1), once with all watches on one HTTP/2 connection. Each
 * ConfigMap carries its sequence number and send time; every watch must see every one, none may be
 * cut off. Latency runs from the write being sent to the event arriving at a watch, so it includes
 * the create itself (commit) and the receiving process's own queueing.
 */
import type { E2eContext } from '../e2e-context.js';
import { ms, rate } from '../format.js';
import { sendOnce } from '../https-client.js';
import type { WatchEstablished, WatchResult } from '../jobs.js';
import { configMapBody } from '../objects.js';
import type { ResultRow } from '../report.js';
import { percentiles } from '../stats.js';
import type { Protocol } from '../senders.js';
import type { Workload } from './workload.js';

const GOAL_P99_MS = 50;
/** After the last write, how long stragglers may take before they count as lost. */
const GRACE_MS = 15_000;

/** One watch run over `protocol`: watchers open, writer writes, deliveries counted. */
async function measureWatch(ctx: E2eContext, protocol: Protocol): Promise<ResultRow> {
  const { settings } = ctx;
  const namespace = await ctx.namespace('watch');
  const head = await sendOnce(ctx.target, { method: 'GET', path: `/api/v1/namespaces/${namespace}/configmaps?limit=1`, headers: { Accept: 'application/json' } });
  if (head.status !== 200) throw new Error(`list ${namespace}: HTTP ${head.status}`);
  const revision = (JSON.parse(head.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const events = settings.writesPerSecond * settings.writeSeconds;
  let established!: () => void;
  const open = new Promise<void>((resolve) => (established = resolve));
  let setupMs = 0;
  const watching: Promise<WatchResult> = ctx.load.run(
    {
      kind: 'watch',
      target: ctx.target,
      protocol,
      path: `/api/v1/namespaces/${namespace}/configmaps?watch=1&resourceVersion=${revision}&allowWatchBookmarks=true&timeoutSeconds=1800`,
      watchers: settings.watchers,
      expectedEvents: events,
      openConcurrency: 50,
      deadlineMs: settings.writeSeconds * 1000 + GRACE_MS,
    },
    (data) => {
      setupMs = (data as WatchEstablished).setupMs;
      established();
    },
  );
  // A watch that fails to open rejects `watching` before `open` resolves.
  await Promise.race([open, watching]);
  const writes = await ctx.writer.run({
    kind: 'paced-writes',
    target: ctx.target,
    perSecond: settings.writesPerSecond,
    count: events,
    pattern: {
      method: 'POST', path: `/api/v1/namespaces/${namespace}/configmaps`, headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      // Names differ per protocol (both runs share the namespace); `seq` restarts at 0.
      body: configMapBody(`w-${protocol === 'h2' ? 'h2' : 'h1'}-{n}`, { seq: '{n}', sentAt: '{t}' }), first: 0,
    },
  });
  const result = await watching;
  const label = `watch over ${protocol}`;
  if (writes.failed > 0) ctx.problems.push(`${label} writer: ${writes.failed} of ${events} writes failed, first: ${writes.firstFailure}`);
  if (result.firstProblem) ctx.problems.push(`${label}: ${result.firstProblem}`);
  const latency = percentiles(result.latenciesMs);
  const writeLatency = percentiles(writes.latenciesMs);
  const expected = settings.watchers * events;
  ctx.notes.push(
    `${label}: opening the ${settings.watchers} watches took ${(setupMs / 1000).toFixed(1)} s; writes went out at ${writes.achievedPerSecond.toFixed(1)}/s, ` +
      `create latency p50 ${ms(writeLatency.p50)} ms, p99 ${ms(writeLatency.p99)} ms (part of the delivery latency); ` +
      `the receiving process used ${result.receiverCpu.toFixed(2)} cores and its event loop ran up to ${ms(result.receiverLoopDelayP99Ms)} ms late (p99); ` +
      `${result.duplicates} duplicate deliveries.`,
  );
  const transport = protocol === 'h2' ? 'HTTP/2, one connection' : 'HTTP/1.1';
  return {
    workload: `watch, ${settings.watchers.toLocaleString('en-US')} watchers x ${settings.writesPerSecond} writes/s, ${transport}`,
    figure: `p50 ${ms(latency.p50)} ms, p99 ${ms(latency.p99)} ms; ${(expected - result.lost).toLocaleString('en-US')}/${expected.toLocaleString('en-US')} delivered, ${result.cutOff} cut off`,
    goal: `p99 ≤ ${GOAL_P99_MS} ms, none lost or cut off`,
    met: latency.p99 <= GOAL_P99_MS && result.lost === 0 && result.cutOff === 0 && writes.failed === 0,
  };
}

export const watchWorkload: Workload = {
  name: 'watch',
  ownServerOnly: false,
  describe: (s) =>
    `watch: ${s.watchers.toLocaleString('en-US')} watches from one resourceVersion in one process (opened 50 at a time), over HTTP/1.1 (a connection each) and then over HTTP/2 (all streams on one connection); ` +
    `a second process creates ${s.writesPerSecond} ConfigMaps/s for ${s.writeSeconds} s (${rate(s.watchers * s.writesPerSecond)} deliveries/s), each stamped with its send time; ` +
    'latency from send to arrival at each watch, p50/p99 over every delivery; lost = deliveries never received, cut off = watches that ended or got an ERROR event. ' +
    'On this machine the receiving process shares the CPUs with the server: Details give its CPU and its own event-loop delay, which the latency includes.',
  async run(ctx: E2eContext): Promise<ResultRow[]> {
    return [await measureWatch(ctx, 'http/1.1'), await measureWatch(ctx, 'h2')];
  },
};
