/**
 * Create: 1 KiB ConfigMaps POSTed by 1, 64 and 256 keep-alive clients. Ceiling: raw SQLite inserts
 * of the same stored JSON on the same disk, in transactions of as many rows as there are clients
 * (N creates in flight can share at most one commit). Ceiling and creates alternate round by
 * round, so a busy moment on the shared machine hits both.
 *
 * A second reference at the goal's level: a bare node:https server reading the same POST and
 * answering with the server's own 201 body. It does no work at all, so no server can create
 * faster than it answers on this machine with this load generator.
 */
import { join } from 'node:path';
import type { E2eContext } from '../e2e-context.js';
import { storedSample } from '../fixtures.js';
import { rate } from '../format.js';
import { startBareServer } from '../bare-server-process.js';
import { sendOnce } from '../https-client.js';
import { createConfigMaps } from '../objects.js';
import type { ResultRow } from '../report.js';
import { median } from '../../stats.js';
import type { ClosedLoopResult } from '../jobs.js';
import { describeThroughput, note, roundJob, runRound, summarize } from './throughput.js';
import type { Workload } from './workload.js';

const GOAL_CLIENTS = 256;
const GOAL_PER_SECOND = 10_000;

export const createWorkload: Workload = {
  name: 'create',
  ownServerOnly: false,
  describe: (s) =>
    `create: POST of a 1 KiB ConfigMap (request body) by ${s.createClients.join(', ')} closed-loop clients, each on its own keep-alive HTTP/1.1 connection; ` +
    `${s.rounds} rounds of ${s.roundMs / 1000} s per level (median rate), connections opened before the clock starts. ` +
    'Ceiling: the stored object\'s JSON inserted into SQLite (better-sqlite3, WAL, synchronous=FULL, one unique key index) in transactions of as many rows as there are clients ' +
    `(at most ${s.sqliteBatch}), for ${s.roundMs / 2000} s before each round of creates. ` +
    `Reference at ${GOAL_CLIENTS} clients: a bare node:https server (own process, same TLS setup) reading the same POST and answering Capstan's 201 body, rounds alternating.`,
  async run(ctx: E2eContext): Promise<ResultRow[]> {
    const { settings } = ctx;
    const namespace = await ctx.namespace('create');
    const value = await storedSample(ctx);
    // Warm-up: JIT, connection pools and the store's files; not counted.
    await ctx.load.run(roundJob(ctx, 64, createConfigMaps(namespace, 'warm-', 0), settings.warmupMs));
    const ceilings = new Map<number, number[]>(settings.createClients.map((c) => [c, []]));
    const rounds = new Map<number, ClosedLoopResult[]>(settings.createClients.map((c) => [c, []]));
    const bareRounds: ClosedLoopResult[] = [];
    const pattern = createConfigMaps(namespace, 'sample-', 0);
    const sample = await sendOnce(ctx.target, { method: 'POST', path: pattern.path, headers: pattern.headers, body: pattern.body!.replace('{n}', '0') });
    if (sample.status !== 201) throw new Error(`create sample: HTTP ${sample.status}`);
    const bare = await startBareServer(sample.text);
    const bareJob = { ...roundJob(ctx, GOAL_CLIENTS, createConfigMaps(namespace, 'bare-', 0)), target: bare.target };
    let first = 0;
    try {
      await ctx.load.run({ ...bareJob, durationMs: settings.warmupMs });
      for (let r = 0; r < settings.rounds; r++) {
        bareRounds.push(await runRound(ctx, bareJob, bare.pid));
        for (const clients of settings.createClients) {
          const sqlite = await ctx.load.run({
            kind: 'sqlite-inserts', directory: join(ctx.scratch, `sqlite-ceiling-${r}-${clients}`), value,
            batchSize: Math.min(clients, settings.sqliteBatch), durationMs: settings.roundMs / 2,
          });
          ceilings.get(clients)!.push((sqlite.rows * 1000) / sqlite.elapsedMs);
          // Numbers never repeat across rounds, so every create makes a new object.
          const round = await runRound(ctx, roundJob(ctx, clients, createConfigMaps(namespace, `c${clients}-`, first)));
          first += round.ok + round.failed + round.untimed;
          rounds.get(clients)!.push(round);
        }
      }
    } finally {
      await bare.stop();
    }
    const bareThroughput = summarize(bareRounds);
    note(ctx, `create reference, bare node:https, ${GOAL_CLIENTS} clients`, bareThroughput);
    const bareCpu = bareThroughput.serverCores === undefined ? '' : `; server CPU ${Math.round((bareThroughput.serverCores * 1e6) / bareThroughput.perSecond)} µs/req`;
    const reference: ResultRow = {
      workload: `create reference: bare node:https, same POST, ${GOAL_CLIENTS} clients`,
      figure: describeThroughput(bareThroughput) + bareCpu,
    };
    return [...settings.createClients.map((clients) => {
      const t = summarize(rounds.get(clients)!);
      const ceiling = median(ceilings.get(clients)!);
      note(ctx, `create, ${clients} client${clients === 1 ? '' : 's'}`, t);
      const goal = clients === GOAL_CLIENTS;
      return {
        workload: `create ConfigMap 1 KiB, ${clients} client${clients === 1 ? '' : 's'}`,
        figure: describeThroughput(t) + (goal ? `; ${Math.round((100 * t.perSecond) / bareThroughput.perSecond)}% of the bare server's rate` : ''),
        ceiling: `${rate(ceiling)} rows/s (SQLite, ${Math.min(clients, settings.sqliteBatch)}/txn)`,
        ratio: t.perSecond / ceiling,
        ...(goal ? { goal: `≥ ${rate(GOAL_PER_SECOND)} req/s`, met: t.perSecond >= GOAL_PER_SECOND && t.failed === 0 } : {}),
      };
    }), reference];
  },
};
