/**
 * The census job: pages through every object of a list path and adds up each object's compact
 * JSON size, the yardstick for the server's resident memory.
 */
import { keepAliveAgent, send } from './https-client.js';
import type { CensusJob, CensusResult } from './jobs.js';

/** Bounds the walk: far more pages than any benchmark store has. */
const MAX_PAGES = 100_000;

export async function runCensus(job: CensusJob): Promise<CensusResult> {
  const agent = keepAliveAgent(job.target, 1);
  let objects = 0;
  let jsonBytes = 0;
  let token = '';
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const path = `${job.path}?limit=${job.pageSize}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
      const reply = await send(agent, job.target, { method: 'GET', path }, true);
      if (reply.status !== 200) throw new Error(`GET ${path}: HTTP ${reply.status}`);
      const list = JSON.parse(reply.body!.toString('utf8')) as { metadata?: { continue?: string }; items?: unknown[] };
      for (const item of list.items ?? []) {
        objects++;
        jsonBytes += Buffer.byteLength(JSON.stringify(item));
      }
      token = list.metadata?.continue ?? '';
      if (!token) break;
    }
    return { objects, jsonBytes };
  } finally {
    agent.destroy();
  }
}
