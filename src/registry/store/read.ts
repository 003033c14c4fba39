/**
 * get and list: served from the watch cache at the revision the request's resourceVersion asks for.
 */
import { fromStorageError, notFound, storeReadError } from '../../api/errors.js';
import { isStorageError } from '../../storage/errors.js';
import type { CacheGetResult, ReadRevision } from '../../storage/cacher/cache-types.js';
import type { KubeObject } from '../object.js';
import { objectKey, refOf, type StoreContext } from './store-context.js';

/**
 * Reads one object; throws 404 NotFound when absent at that revision. The object is the cache's,
 * shared with every reader: it must not be changed.
 */
export function getObject(ctx: StoreContext, namespace: string, name: string, at: ReadRevision, signal?: AbortSignal): Promise<KubeObject> {
  try {
    const now = getObjectNow(ctx, namespace, name, at);
    if (now !== undefined) return Promise.resolve(now);
  } catch (err) {
    return Promise.reject(err);
  }
  return ctx.cache.get(objectKey(ctx, namespace, name), at, signal).then(
    (result) => presentObject(ctx, name, result),
    (err: unknown) => {
      throw fromStorageError(err, refOf(ctx, name));
    },
  );
}

/**
 * {@link getObject}'s answer when the cache has it at once (most reads find the cache as new as
 * they need); undefined when only getObject can tell. Throws 404 NotFound as getObject rejects.
 */
export function getObjectNow(ctx: StoreContext, namespace: string, name: string, at: ReadRevision): KubeObject | undefined {
  try {
    const now = ctx.cache.getNow(objectKey(ctx, namespace, name), at);
    return now === undefined ? undefined : presentObject(ctx, name, now);
  } catch (err) {
    throw fromStorageError(err, refOf(ctx, name));
  }
}

function presentObject(ctx: StoreContext, name: string, result: CacheGetResult<KubeObject>): KubeObject {
  if (!result.entry) throw notFound(refOf(ctx, name));
  return result.entry.object;
}

export interface ListRequest {
  /** "" for all namespaces (or a cluster-scoped type). */
  readonly namespace: string;
  readonly at: ReadRevision;
  /** Resume after this key, relative to the list prefix (from a continue token). */
  readonly start?: string;
  readonly limit?: number;
  readonly filter?: (object: KubeObject) => boolean;
  readonly signal?: AbortSignal;
  /**
   * Undecodable objects fail the list with 500 StorageReadError naming them (upstream, with
   * AllowUnsafeMalformedObjectDeletion), instead of an InternalError.
   */
  readonly reportCorrupt?: boolean;
}

export interface ListPage {
  /** The cache's objects, shared with every reader: they must not be changed. */
  readonly items: readonly KubeObject[];
  readonly revision: number;
  /** The next key relative to the list prefix, when the page was cut by the limit. */
  readonly next: string | undefined;
  readonly remaining: number | undefined;
}

export function listPrefix(ctx: StoreContext, namespace: string): string {
  const d = ctx.definition;
  return ctx.keys.listPrefix(d.group, d.resource, d.namespaced ? namespace : '');
}

export async function listObjects(ctx: StoreContext, request: ListRequest): Promise<ListPage> {
  const prefix = listPrefix(ctx, request.namespace);
  try {
    const result = await ctx.cache.list({
      prefix,
      at: request.at,
      ...(request.start !== undefined ? { startKey: prefix + request.start } : {}),
      ...(request.limit ? { limit: request.limit } : {}),
      ...(request.filter ? { filter: request.filter } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    return {
      items: result.items.map((e) => e.object),
      revision: result.revision,
      next: result.continueKey === undefined ? undefined : result.continueKey.slice(prefix.length),
      remaining: result.remaining,
    };
  } catch (err) {
    if (request.reportCorrupt && isStorageError(err, 'corrupt') && err.corruptValues !== undefined) {
      throw storeReadError(ctx.definition.resource, ctx.definition.group, err.corruptValues);
    }
    throw fromStorageError(err);
  }
}
