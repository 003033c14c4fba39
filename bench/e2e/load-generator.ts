/**
 * The load-generator process (forked by {@link LoadGenerator}): runs one job at a time as the
 * parent asks and sends back its result. A separate process, so that generating load does not
 * share an event loop with the benchmark's bookkeeping, nor the server's.
 */
import { runCensus } from './census-job.js';
import { runClosedLoop } from './closed-loop.js';
import type { Job, JobMessage, ReplyMessage } from './jobs.js';
import { runList } from './list-job.js';
import { runPacedWrites } from './paced-writes-job.js';
import { settleMemory } from './settle-memory-job.js';
import { runSqliteInserts } from './sqlite-inserts-job.js';
import { runWatch } from './watch-job.js';

function reply(message: ReplyMessage): void {
  process.send!(message);
}

async function run(job: Job, progress: (data: unknown) => void): Promise<unknown> {
  switch (job.kind) {
    case 'closed-loop':
      return runClosedLoop(job);
    case 'list':
      return runList(job);
    case 'watch':
      return runWatch(job, progress);
    case 'paced-writes':
      return runPacedWrites(job);
    case 'census':
      return runCensus(job);
    case 'sqlite-inserts':
      return runSqliteInserts(job);
    case 'settle-memory':
      return settleMemory(job);
  }
}

if (!process.send) throw new Error('load-generator.js runs as a forked child of the benchmark');
process.on('message', (message: JobMessage) => {
  const { id, job } = message;
  run(job, (data) => reply({ id, type: 'progress', data })).then(
    (result) => reply({ id, type: 'result', result }),
    (err: unknown) => reply({ id, type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
  );
});
// The parent going away (a crashed benchmark) ends this process too.
process.on('disconnect', () => process.exit(0));
