/**
 * Watch fan-out: 1,000 watches on one namespace from one resource version, in one load-generator
 * process (or spread over several, --watch-receivers), while a second process creates 50
 * ConfigMaps/s (50,000 deliveries/s): warm-up writes first, then rounds of 10 s; once with a
 * connection per watch (HTTP/1.1), once with all watches on one HTTP/2 connection per process.
 * Each ConfigMap carries its sequence number and send time; every watch must see every one, none
 * may be cut off. Latency runs from the write being sent to the event arriving at a watch, so it
 * includes the create itself (commit) and the receiving process's own queueing.
 */
import type { E2eContext } from '../e2e-context.js';
import { ms, rate } from '../format.js';
import { sendOnce } from '../https-client.js';
import type { PacedWriteResult, WatchEstablished, WatchResult } from '../jobs.js';
import { describeStretches, KernelThreadSampler, type StretchSummary } from '../kernel-thread-stretches.js';
import { LoadGenerator } from '../load-generator-client.js';
import { configMapBody } from '../objects.js';
import { cpuWhileMeasured, describeCpuWhileMeasured } from '../proc-stats.js';
import type { ResultRow } from '../report.js';
import type { Protocol } from '../senders.js';
import { median, percentiles } from '../../stats.js';
import type { Workload } from './workload.js';

const GOAL_P99_MS = 50;
/** After the last write, how long stragglers may take before they count as lost. */
const GRACE_MS = 15_000;

/** The watchers' results merged across receiving processes (counts summed, worst loop delay). */
type Merged = Omit<WatchResult, 'setupMs' | 'latenciesMs' | 'firstArrivalMs' | 'lastArrivalMs'> & {
  /** Per round, every receiver's samples. */
  readonly latenciesMs: Float64Array[][];
  /** Per event seen at all: latency to its first watcher, and from there to its last one. */
  readonly firstArrivalMs: number[];
  readonly spreadMs: number[];
};

function merge(results: readonly WatchResult[]): Merged {
  const firstArrivalMs: number[] = [];
  const spreadMs: number[] = [];
  const events = results[0]?.firstArrivalMs.length ?? 0;
  for (let seq = 0; seq < events; seq++) {
    const first = Math.min(...results.map((r) => r.firstArrivalMs[seq]!));
    const last = Math.max(...results.map((r) => r.lastArrivalMs[seq]!));
    if (first === Infinity) continue;
    firstArrivalMs.push(first);
    spreadMs.push(last - first);
  }
  const firstProblem = results.find((r) => r.firstProblem)?.firstProblem;
  return {
    latenciesMs: (results[0]?.latenciesMs ?? []).map((_, round) => results.map((r) => r.latenciesMs[round]!)),
    firstArrivalMs,
    spreadMs,
    lost: results.reduce((n, r) => n + r.lost, 0),
    duplicates: results.reduce((n, r) => n + r.duplicates, 0),
    cutOff: results.reduce((n, r) => n + r.cutOff, 0),
    receiverCpu: results.reduce((n, r) => n + r.receiverCpu, 0),
    receiverLoopDelayP99Ms: Math.max(...results.map((r) => r.receiverLoopDelayP99Ms)),
    receiverLoopDelayMaxMs: Math.max(...results.map((r) => r.receiverLoopDelayMaxMs)),
    // The server and the machine are the same for every receiver: the first one's readings.
    ...cpuWhileMeasured(results[0]!),
    ...(firstProblem ? { firstProblem } : {}),
  };
}

/** `total` split into `parts` shares that differ by one at most. */
function shares(total: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));
}

/** One watch run over `protocol`: watchers open, writer warms up and writes, deliveries counted. */
async function measureWatch(ctx: E2eContext, protocol: Protocol, receivers: readonly LoadGenerator[]): Promise<ResultRow> {
  const { settings } = ctx;
  const namespace = await ctx.namespace('watch');
  const head = await sendOnce(ctx.target, { method: 'GET', path: `/api/v1/namespaces/${namespace}/configmaps?limit=1`, headers: { Accept: 'application/json' } });
  if (head.status !== 200) throw new Error(`list ${namespace}: HTTP ${head.status}`);
  const revision = (JSON.parse(head.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const events = settings.writesPerSecond * settings.writeSeconds * settings.watchRounds;
  const warmupSeconds = settings.watchWarmupWrites / settings.writesPerSecond;
  const opened: Promise<void>[] = [];
  let setupMs = 0;
  const watching: Promise<WatchResult>[] = shares(settings.watchers, receivers.length).map((watchers, i) => {
    let established!: () => void;
    opened.push(new Promise<void>((resolve) => (established = resolve)));
    return receivers[i]!.run(
      {
        kind: 'watch',
        target: ctx.target,
        protocol,
        path: `/api/v1/namespaces/${namespace}/configmaps?watch=1&resourceVersion=${revision}&allowWatchBookmarks=true&timeoutSeconds=1800`,
        watchers,
        expectedEvents: events,
        rounds: settings.watchRounds,
        openConcurrency: 50,
        deadlineMs: (warmupSeconds + settings.writeSeconds * settings.watchRounds) * 1000 + GRACE_MS,
        ...ctx.serverProcess,
      },
      (data) => {
        setupMs = Math.max(setupMs, (data as WatchEstablished).setupMs);
        established();
      },
    );
  });
  // A watch that fails to open rejects its job before every watch is open.
  await Promise.race([Promise.all(opened), Promise.all(watching)]);
  // Names differ per protocol (both runs share the namespace); `seq` restarts at 0.
  const prefix = `w-${protocol === 'h2' ? 'h2' : 'h1'}`;
  const path = `/api/v1/namespaces/${namespace}/configmaps`;
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
  const paced = (count: number, body: string) =>
    ctx.writer.run({ kind: 'paced-writes', target: ctx.target, perSecond: settings.writesPerSecond, count, pattern: { method: 'POST', path, headers, body, first: 0 } });
  // No `seq`: the watchers receive these and leave them uncounted. (`sentAt` only keeps the
  // objects the size of the timed ones.)
  const warmup = await paced(settings.watchWarmupWrites, configMapBody(`${prefix}-warm-{n}`, { warmup: '{n}', sentAt: '{t}' }));
  // Beside the timed writes, when the server shares this machine: how DAMON's kernel thread ran,
  // which held a CPU in stretches on this project's VMs.
  const kdamond = ctx.serverProcess.serverPid === undefined ? undefined : KernelThreadSampler.start('kdamond');
  let kdamondRan: StretchSummary | undefined;
  let writes: PacedWriteResult;
  try {
    writes = await paced(events, configMapBody(`${prefix}-{n}`, { seq: '{n}', sentAt: '{t}' }));
  } finally {
    kdamondRan = kdamond?.stop();
  }
  const result = merge(await Promise.all(watching));
  const label = `watch over ${protocol}`;
  if (warmup.failed > 0) ctx.problems.push(`${label} warm-up writer: ${warmup.failed} of ${settings.watchWarmupWrites} writes failed, first: ${warmup.firstFailure}`);
  if (writes.failed > 0) ctx.problems.push(`${label} writer: ${writes.failed} of ${events} writes failed, first: ${writes.firstFailure}`);
  if (result.firstProblem) ctx.problems.push(`${label}: ${result.firstProblem}`);
  const rounds = result.latenciesMs.map((samples) => percentiles(...samples));
  const p99 = median(rounds.map((r) => r.p99));
  const all = percentiles(...result.latenciesMs.flat());
  const writeLatency = percentiles(writes.latenciesMs);
  const first = percentiles(result.firstArrivalMs);
  const spread = percentiles(result.spreadMs);
  const expected = settings.watchers * events;
  const inProcesses = receivers.length === 1 ? 'the receiving process' : `the ${receivers.length} receiving processes`;
  ctx.notes.push(
    `${label}: opening the ${settings.watchers} watches took ${(setupMs / 1000).toFixed(1)} s; writes went out at ${writes.achievedPerSecond.toFixed(1)}/s, ` +
      `create latency p50 ${ms(writeLatency.p50)} ms, p99 ${ms(writeLatency.p99)} ms (part of the delivery latency); ` +
      `an event reached its first watcher after p50 ${ms(first.p50)} ms, p99 ${ms(first.p99)} ms, and its last one p50 ${ms(spread.p50)} ms, p99 ${ms(spread.p99)} ms after that; ` +
      `${inProcesses} used ${result.receiverCpu.toFixed(2)} cores and ${receivers.length === 1 ? 'its' : 'their'} event loop ran up to ${ms(result.receiverLoopDelayP99Ms)} ms late (p99), ${ms(result.receiverLoopDelayMaxMs)} ms at most; ` +
      `${describeCpuWhileMeasured(result)}; ` +
      (kdamondRan ? `while the timed writes went out, ${describeStretches(kdamondRan)}; ` : '') +
      `${result.duplicates} duplicate deliveries.`,
  );
  const transport = protocol === 'h2' ? `HTTP/2, ${receivers.length === 1 ? 'one connection' : `${receivers.length} connections`}` : 'HTTP/1.1';
  return {
    workload: `watch, ${settings.watchers.toLocaleString('en-US')} watchers x ${settings.writesPerSecond} writes/s, ${transport}`,
    figure:
      (rounds.length === 1
        ? `p50 ${ms(all.p50)} ms, p99 ${ms(all.p99)} ms; `
        : `p99 median ${ms(p99)} ms over ${rounds.length} rounds of ${settings.writeSeconds} s (${rounds.map((r) => ms(r.p99)).join(', ')}); ` +
          `all rounds together p50 ${ms(all.p50)} ms, p99 ${ms(all.p99)} ms; `) +
      `${(expected - result.lost).toLocaleString('en-US')}/${expected.toLocaleString('en-US')} delivered, ${result.cutOff} cut off`,
    goal: `p99 ≤ ${GOAL_P99_MS} ms, none lost or cut off`,
    met: p99 <= GOAL_P99_MS && result.lost === 0 && result.cutOff === 0 && writes.failed === 0 && warmup.failed === 0,
  };
}

/** Runs `measure` with `count` receiving processes: the load generator and `count - 1` more, ended after. */
async function withReceivers<T>(ctx: E2eContext, count: number, measure: (receivers: readonly LoadGenerator[]) => Promise<T>): Promise<T> {
  const extra = Array.from({ length: count - 1 }, (_, i) => LoadGenerator.start(`watch receiver ${i + 2}`));
  try {
    return await measure([ctx.load, ...extra]);
  } finally {
    await Promise.all(extra.map((g) => g.close()));
  }
}

export const watchWorkload: Workload = {
  name: 'watch',
  ownServerOnly: false,
  describe: (s) =>
    `watch: ${s.watchers.toLocaleString('en-US')} watches from one resourceVersion in ${s.watchReceivers === 1 ? 'one process' : `${s.watchReceivers} processes (a share each)`} (opened 50 at a time), ` +
    `over HTTP/1.1 (a connection each) and then over HTTP/2 (all of a process's streams on one connection); ` +
    `a second process creates ${s.writesPerSecond} ConfigMaps/s (${rate(s.watchers * s.writesPerSecond)} deliveries/s), each stamped with its send time: ` +
    `first ${s.watchWarmupWrites} uncounted warm-up writes (the watchers receive them, but code is still cold: the first events of a fresh server take 2-4x longer), ` +
    `then ${s.watchRounds} rounds of ${s.writeSeconds} s back to back. Latency from send to arrival at each watch; the figure is the median of the rounds' p99 (over every delivery of the round), ` +
    'as the other workloads take the median of their rounds; lost = deliveries never received, cut off = watches that ended or got an ERROR event. ' +
    'On this machine the receiving process shares the CPUs with the server: Details give its CPU and its own event-loop delay, which the latency includes, ' +
    'and split each event\'s latency into the time to its first watcher (the write, the commit, the start of the fan-out) and from there to its last; ' +
    'they also say how DAMON\'s kernel thread (kdamond) ran while the timed writes went out: its stretches of 20 ms or more on a CPU, read every 10 ms.',
  async run(ctx: E2eContext): Promise<ResultRow[]> {
    return withReceivers(ctx, ctx.settings.watchReceivers, async (receivers) => [
      await measureWatch(ctx, 'http/1.1', receivers),
      await measureWatch(ctx, 'h2', receivers),
    ]);
  },
};
