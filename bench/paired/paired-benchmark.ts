/**
 * `npm run bench -- paired --old PATH`: two builds of Capstan side by side, one workload sent to
 * each in alternating rounds, and the median of the per-round ratios of their rates and of their
 * main-thread CPU per request (paired-figures.ts).
 *
 * On this shared machine a full run's figures move with the machine by more than most changes
 * do (the bare server's creates went from 27,000 to 44,000 a second over two days), so a change is
 * measured against the build before it here, not across full runs. Both servers run throughout
 * and take turns, so a busy moment hits both. A build measured against itself shows what is left
 * of the method's noise (ratios within ~1% in quiet spells) and of its bias (up to a few percent in
 * favour of the server started second), so run both orders (`--first old`, `--first new`).
 *
 * Options (all but --old have defaults):
 *   --old PATH          the other build's dist/capstan/main.js (copy dist/capstan of that commit
 *                       somewhere under this checkout, so that it finds node_modules)
 *   --new PATH          default: this build's bundle
 *   --workload NAME     get (by name, 64 clients, HTTP/1.1, over 10,000 ConfigMaps; the default)
 *                       or create (ConfigMaps of 1 KiB, 256 clients)
 *   --rounds N          pairs of rounds (default 8); --round-ms (default 2000, create 3000)
 *   --first old|new     which server starts first (default old)
 *   --preload N         create N more ConfigMaps in each first (a full run's heap)
 *   --old-node-args "...", --new-node-args "..."   node options for either server
 * Prints only; writes nothing to RESULTS.md (a pair of builds is not a reference result).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Benchmark, BenchmarkContext } from '../run.js';
import { E2eContext } from '../e2e/e2e-context.js';
import { bulkCreate, listData, listDataGets } from '../e2e/fixtures.js';
import type { ClosedLoopJob, ClosedLoopResult, RequestPattern } from '../e2e/jobs.js';
import { LoadGenerator } from '../e2e/load-generator-client.js';
import { createConfigMaps } from '../e2e/objects.js';
import { ServerHandle } from '../e2e/server-handle.js';
import { e2eSettings, type E2eSettings } from '../e2e/settings.js';
import { roundJob, runRound } from '../e2e/workloads/throughput.js';
import { summarizePairs, type PairedRound } from './paired-figures.js';

type Side = 'old' | 'new';

interface Contender {
  readonly side: Side;
  readonly ctx: E2eContext;
  /** The next request pattern, for the next round (creates need new names each round). */
  nextPattern(): RequestPattern;
  afterRound(result: ClosedLoopResult): void;
  readonly rounds: PairedRound[];
}

interface PairedOptions {
  readonly main: Readonly<Record<Side, string | undefined>>;
  readonly nodeArgs: Readonly<Record<Side, readonly string[]>>;
  readonly workload: 'get' | 'create';
  readonly rounds: number;
  readonly roundMs: number;
  readonly clients: number;
  readonly first: Side;
  readonly preload: number;
}

function pairedOptions(options: ReadonlyMap<string, string>): PairedOptions | undefined {
  const old = options.get('old');
  if (old === undefined) return undefined;
  const workload = options.get('workload') ?? 'get';
  if (workload !== 'get' && workload !== 'create') throw new Error(`--workload: get or create, not "${workload}"`);
  const first = options.get('first') ?? 'old';
  if (first !== 'old' && first !== 'new') throw new Error(`--first: old or new, not "${first}"`);
  const count = (name: string, fallback: number): number => {
    const value = Number(options.get(name) ?? fallback);
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name}: a whole number, not "${options.get(name)}"`);
    return value;
  };
  const words = (name: string): string[] => (options.get(name) ?? '').split(' ').filter(Boolean);
  return {
    main: { old, new: options.get('new') },
    nodeArgs: { old: words('old-node-args'), new: words('new-node-args') },
    workload,
    rounds: Math.max(1, count('rounds', 8)),
    roundMs: Math.max(100, count('round-ms', workload === 'create' ? 3000 : 2000)),
    clients: workload === 'create' ? 256 : 64,
    first,
    preload: count('preload', 0),
  };
}

async function startContender(side: Side, o: PairedOptions, settings: E2eSettings, scratch: string, load: LoadGenerator, writer: LoadGenerator): Promise<Contender> {
  const main = o.main[side];
  const server = await ServerHandle.own({ dataDir: join(scratch, side), nodeArgs: o.nodeArgs[side], ...(main === undefined ? {} : { main }) });
  const ctx = new E2eContext(settings, server, load, writer, scratch, `paired-${side}`);
  const createNamespace = await ctx.namespace('create');
  if (o.preload > 0) await bulkCreate(ctx, createNamespace, 'preload-', o.preload);
  const rounds: PairedRound[] = [];
  if (o.workload === 'create') {
    let next = 0;
    return {
      side,
      ctx,
      rounds,
      nextPattern: () => createConfigMaps(createNamespace, 'paired-', next),
      afterRound: (r) => (next += r.ok + r.failed + r.untimed),
    };
  }
  const pattern = listDataGets(await listData(ctx), settings.listObjects);
  return { side, ctx, rounds, nextPattern: () => pattern, afterRound: () => undefined };
}

async function runPairRound(c: Contender, o: PairedOptions, durationMs: number): Promise<ClosedLoopResult> {
  const job: ClosedLoopJob = { ...roundJob(c.ctx, o.clients, c.nextPattern(), durationMs), protocol: 'http/1.1' };
  const result = await runRound(c.ctx, job);
  c.afterRound(result);
  return result;
}

function roundOf(result: ClosedLoopResult): PairedRound {
  const rate = (result.ok * 1000) / result.elapsedMs;
  return { rate, mainMicros: result.serverMainThreadCores === undefined ? undefined : (result.serverMainThreadCores * 1e6) / rate };
}

const us = (v: number | undefined): string => (v === undefined || Number.isNaN(v) ? '?' : `${v.toFixed(1)} µs`);

export const pairedBenchmark: Benchmark = {
  name: 'paired',
  description: 'two builds side by side, one workload in alternating rounds, paired ratios (needs --old PATH)',
  async run(context: BenchmarkContext): Promise<void> {
    const o = pairedOptions(context.options);
    if (o === undefined) {
      console.log('paired: skipped (give --old PATH, the main.js of the build to compare with)');
      return;
    }
    const settings = e2eSettings(context.quick, new Map([['only', 'get']]));
    const scratch = mkdtempSync(join(tmpdir(), 'capstan-bench-paired-'));
    const load = LoadGenerator.start('load');
    const writer = LoadGenerator.start('writer');
    const contenders: Contender[] = [];
    try {
      const order: Side[] = o.first === 'old' ? ['old', 'new'] : ['new', 'old'];
      for (const side of order) contenders.push(await startContender(side, o, settings, scratch, load, writer));
      const roundsOf = (side: Side): PairedRound[] => contenders.find((c) => c.side === side)!.rounds;
      for (const c of contenders) await runPairRound(c, o, settings.warmupMs);
      for (let round = 0; round < o.rounds; round++) {
        // Alternate which goes first in each pair, so that neither always follows the other.
        const turn = round % 2 === 0 ? contenders : [...contenders].reverse();
        for (const c of turn) c.rounds.push(roundOf(await runPairRound(c, o, o.roundMs)));
        const [oldRound, newRound] = (['old', 'new'] as const).map((side) => roundsOf(side).at(-1)!);
        console.log(
          `paired: round ${round + 1}: old ${Math.round(oldRound!.rate)}/s, ${us(oldRound!.mainMicros)}; new ${Math.round(newRound!.rate)}/s, ${us(newRound!.mainMicros)}`,
        );
      }
      const s = summarizePairs(roundsOf('old'), roundsOf('new'));
      console.log(`paired: ${o.workload}, ${o.rounds} pairs of ${o.roundMs / 1000} s rounds, ${o.first} started first${o.preload > 0 ? `, ${o.preload} ConfigMaps preloaded` : ''}`);
      console.log(`paired: old: median ${Math.round(s.old.rate)}/s, main thread ${us(s.old.mainMicros)} per request`);
      console.log(`paired: new: median ${Math.round(s.new.rate)}/s, main thread ${us(s.new.mainMicros)} per request`);
      console.log(`paired: new/old, median of the rounds' ratios: rate ${s.rateRatio.toFixed(3)}, main-thread CPU per request ${s.cpuRatio.toFixed(3)}`);
    } finally {
      for (const c of contenders) await c.ctx.server.stop();
      await Promise.all([load.close(), writer.close()]);
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};
