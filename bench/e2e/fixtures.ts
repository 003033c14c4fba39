/**
 * Data the workloads need before they are timed: a sample object, the 10,000 ConfigMaps to list
 * and get, and a second server holding 100,000 objects. Each is prepared once per run, on first
 * need, by the load generator with many clients (fast, and not part of any figure).
 */
import type { E2eContext } from './e2e-context.js';
import { join } from 'node:path';
import { sendOnce } from './https-client.js';
import { ServerHandle } from './server-handle.js';
import { capstanStartOptions } from './settings.js';
import type { CensusResult, RequestPattern } from './jobs.js';
import { configMapBody, createConfigMaps } from './objects.js';

/** Loading runs at most this long; far more than 100,000 creates need. */
const BULK_LIMIT_MS = 600_000;

/** Creates `count` ConfigMaps `${prefix}{n}`, n = 0..count-1. Throws if any fails. */
export async function bulkCreate(ctx: E2eContext, namespace: string, prefix: string, count: number): Promise<void> {
  const clients = Math.min(ctx.settings.bulkClients, count);
  const result = await ctx.load.run({
    kind: 'closed-loop',
    target: ctx.target,
    concurrency: clients,
    pattern: createConfigMaps(namespace, prefix, 0),
    durationMs: BULK_LIMIT_MS,
    // The untimed first request of each client creates an object too.
    maxRequests: count - clients,
  });
  if (result.failed > 0 || result.ok + result.untimed < count) {
    throw new Error(`loading ${count} ConfigMaps into ${namespace}: ${result.ok + result.untimed} created, ${result.failed} failed (${result.firstFailure ?? 'stopped early'})`);
  }
}

/**
 * The server's answer to creating one 1 KiB ConfigMap: the stored object as JSON, the value the
 * create ceiling inserts.
 */
export function storedSample(ctx: E2eContext): Promise<string> {
  return ctx.once('sample', async () => {
    const namespace = await ctx.namespace('sample');
    const create = await sendOnce(ctx.target, {
      method: 'POST', path: `/api/v1/namespaces/${namespace}/configmaps`,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: configMapBody('sample-0000000'),
    });
    if (create.status !== 201) throw new Error(`creating the sample ConfigMap: HTTP ${create.status}: ${create.text.slice(0, 300)}`);
    return create.text;
  });
}

/** GETs by name of {@link listData}'s ConfigMaps in `namespace`, cycling over all of them. */
export function listDataGets(namespace: string, listObjects: number): RequestPattern {
  return { method: 'GET', path: `/api/v1/namespaces/${namespace}/configmaps/cm-{n}`, headers: { Accept: 'application/json' }, first: 0, cycle: listObjects };
}

/** The namespace holding `listObjects` ConfigMaps `cm-0000000` ... (loaded on first call). */
export function listData(ctx: E2eContext): Promise<string> {
  return ctx.once('list', async () => {
    const namespace = await ctx.namespace('list');
    await bulkCreate(ctx, namespace, 'cm-', ctx.settings.listObjects);
    return namespace;
  });
}

/**
 * A second Capstan, on its own data directory, holding exactly `storeObjects` ConfigMaps and
 * nothing else the run did: the memory and loaded-startup figures are then about the objects, not
 * about how many the create workload happened to make or what the watch workload left behind.
 */
export function loadedStore(ctx: E2eContext): Promise<E2eContext> {
  return ctx.once('loaded-store', async () => {
    const server = await ServerHandle.own(capstanStartOptions(ctx.settings, join(ctx.scratch, 'loaded-store')));
    const loaded = ctx.withServer(server);
    await filledStore(loaded);
    return loaded;
  });
}

/** Tops the store up to `storeObjects` ConfigMaps (counted with the server's remainingItemCount). */
function filledStore(ctx: E2eContext): Promise<void> {
  return ctx.once('fill', async () => {
    const present = await countConfigMaps(ctx);
    const missing = ctx.settings.storeObjects - present;
    if (missing > 0) await bulkCreate(ctx, await ctx.namespace('fill'), 'fill-', missing);
  });
}

/** ConfigMaps in all namespaces, from one list of one item and its remainingItemCount. */
async function countConfigMaps(ctx: E2eContext): Promise<number> {
  const reply = await sendOnce(ctx.target, { method: 'GET', path: '/api/v1/configmaps?limit=1', headers: { Accept: 'application/json' } });
  if (reply.status !== 200) throw new Error(`counting ConfigMaps: HTTP ${reply.status}`);
  const list = JSON.parse(reply.text) as { metadata?: { remainingItemCount?: number }; items?: unknown[] };
  return (list.items?.length ?? 0) + (list.metadata?.remainingItemCount ?? 0);
}

/** How many ConfigMaps the store holds and their JSON size (one paged walk, shared by the memory figures). */
export function storeCensus(ctx: E2eContext): Promise<CensusResult> {
  return ctx.once('census', () => ctx.load.run({ kind: 'census', target: ctx.target, path: '/api/v1/configmaps', pageSize: 1000 }));
}
