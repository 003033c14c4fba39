/**
 * The list job: one list (all pages, following `continue`) repeated on one keep-alive connection.
 * The first run is untimed and parses every page to count the items; timed runs keep only the
 * head of each page (where the continue token is), so client-side parsing is not part of the figure.
 *
 * The connection is the closed loop's lean one (http1-connection.ts), not node:https: receiving 13
 * MiB through Node's HTTP client cost a fresh load generator 140, 60 and 70 ms of CPU on its first
 * three lists of 10,000 ConfigMaps and 10-40 ms later on, while the server spent 20-40 ms on each;
 * the figure measured the client warming up as much as the server.
 */
import { Http1Connection } from './http1-connection.js';
import { now, secureContextFor } from './https-client.js';
import type { ListJob, ListResult } from './jobs.js';
import { coresOfOthers, readCpuOfOthers } from './proc-stats.js';

/** Bounds a run whose continue tokens would never end. */
const MAX_PAGES = 10_000;
/** Lists and Tables put `metadata` (with `continue`) before their items: the head holds the token. */
const HEAD_BYTES = 4096;

export async function runList(job: ListJob): Promise<ListResult> {
  const connection = await Http1Connection.open(job.target, secureContextFor(job.target));
  try {
    const check = await listOnce(job, connection, true);
    const runsMs: number[] = [];
    const othersBefore = readCpuOfOthers(job.serverPid);
    const began = now();
    for (let run = 0; run < job.runs; run++) {
      const started = now();
      await listOnce(job, connection, false);
      runsMs.push(now() - started);
    }
    const others = coresOfOthers(othersBefore, readCpuOfOthers(job.serverPid), now() - began);
    return { runsMs, pages: check.pages, items: check.items, bytes: check.bytes, ...others };
  } finally {
    connection.close();
  }
}

interface Pass {
  pages: number;
  items: number;
  bytes: number;
}

async function listOnce(job: ListJob, connection: Http1Connection, count: boolean): Promise<Pass> {
  const pass: Pass = { pages: 0, items: 0, bytes: 0 };
  let token: string | undefined;
  do {
    const query = [job.pageSize ? `limit=${job.pageSize}` : '', token ? `continue=${encodeURIComponent(token)}` : ''].filter(Boolean).join('&');
    const path = query ? `${job.path}${job.path.includes('?') ? '&' : '?'}${query}` : job.path;
    const reply = await connection.request({ method: 'GET', path, ...(job.accept ? { headers: { Accept: job.accept } } : {}) }, count ? Infinity : HEAD_BYTES);
    const body = reply.body!;
    if (reply.status !== 200) throw new Error(`GET ${path}: HTTP ${reply.status}: ${body.subarray(0, 300).toString()}`);
    pass.pages++;
    pass.bytes += reply.bytes;
    if (count) pass.items += itemsOf(body);
    token = job.pageSize ? continueToken(body) : undefined;
  } while (token && pass.pages < MAX_PAGES);
  return pass;
}

/** A list's items or a Table's rows. */
function itemsOf(body: Buffer): number {
  const parsed = JSON.parse(body.toString('utf8')) as { items?: unknown[] | null; rows?: unknown[] | null };
  return (parsed.items ?? parsed.rows ?? []).length;
}

/** The continue token in a page's head. */
function continueToken(body: Buffer): string | undefined {
  const head = body.subarray(0, HEAD_BYTES).toString('utf8');
  const end = [head.indexOf('"items"'), head.indexOf('"columnDefinitions"'), head.indexOf('"rows"')].filter((i) => i >= 0);
  const metadata = end.length > 0 ? head.slice(0, Math.min(...end)) : head;
  const match = /"continue":"([^"]*)"/.exec(metadata);
  return match?.[1] || undefined;
}
