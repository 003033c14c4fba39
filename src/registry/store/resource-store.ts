/**
 * The generic store of one resource type: the verbs, each in its own file, behind one object the
 * endpoint handlers call. Knows storage and the watch cache; knows nothing of HTTP.
 */
import { fromWatchStorageError, type ResourceRef } from '../../api/errors.js';
import type { CacheWatch, ReadRevision, WatchStart } from '../../storage/cacher/cache-types.js';
import type { KubeObject } from '../object.js';
import { applyObject, type ApplyOptions, type ApplyRequest } from './apply.js';
import { createObject } from './create.js';
import { deleteObject, type DeleteObjectRequest, type DeleteResult } from './delete.js';
import { deleteCorruptObject, type CorruptDeleteResult } from './delete-corrupt.js';
import { getObject, getObjectNow, listObjects, listPrefix, type ListPage, type ListRequest } from './read.js';
import { objectKey, type StoreContext, type WriteOptions } from './store-context.js';
import { guaranteedUpdate, replaceObject, type GuaranteedUpdateOptions, type TryUpdate, type UpdateResult } from './update.js';

export interface WatchRequest {
  readonly namespace: string;
  /** Watch one object by name ("" for all). */
  readonly name: string;
  readonly start: WatchStart;
  readonly bookmarks: boolean;
  readonly initialEventsEndBookmark: boolean;
  readonly filter?: (object: KubeObject) => boolean;
  readonly signal: AbortSignal;
}

export class ResourceStore {
  constructor(readonly context: StoreContext) {}

  get definition() {
    return this.context.definition;
  }

  get(namespace: string, name: string, at: ReadRevision, signal?: AbortSignal): Promise<KubeObject> {
    return getObject(this.context, namespace, name, at, signal);
  }

  /** {@link get}'s answer when it is ready at once, else undefined; throws as get rejects. */
  getNow(namespace: string, name: string, at: ReadRevision): KubeObject | undefined {
    return getObjectNow(this.context, namespace, name, at);
  }

  list(request: ListRequest): Promise<ListPage> {
    return listObjects(this.context, request);
  }

  /** Starts a watch; fails (410, 504, ...) before any event when it cannot start. */
  async watch(request: WatchRequest): Promise<CacheWatch<KubeObject>> {
    const ctx = this.context;
    try {
      return await ctx.cache.watch({
        prefix: listPrefix(ctx, request.namespace),
        ...(request.name !== '' ? { key: objectKey(ctx, request.namespace, request.name) } : {}),
        start: request.start,
        bookmarks: request.bookmarks,
        initialEventsEndBookmark: request.initialEventsEndBookmark,
        ...(request.filter ? { filter: request.filter } : {}),
        signal: request.signal,
      });
    } catch (err) {
      throw fromWatchStorageError(err);
    }
  }

  create(namespace: string, object: KubeObject, options: WriteOptions): Promise<KubeObject> {
    return createObject(this.context, namespace, object, options);
  }

  /** PUT: replace, or create when absent and the type allows it. */
  replace(namespace: string, name: string, body: KubeObject, options: WriteOptions): Promise<UpdateResult & { created: boolean }> {
    return replaceObject(this.context, namespace, name, body, options, () => this.create(namespace, structuredClone(body), options));
  }

  /** Read-modify-write with retries on conflict (PATCH and server-side changes). */
  update(namespace: string, name: string, tryUpdate: TryUpdate, options: Omit<GuaranteedUpdateOptions, 'retryOnConflict'>): Promise<UpdateResult> {
    return guaranteedUpdate(this.context, namespace, name, tryUpdate, { ...options, retryOnConflict: true });
  }

  /** Server-side apply: creates the object when absent (`created`), else merges into it. */
  apply(namespace: string, name: string, request: ApplyRequest, options: ApplyOptions): Promise<{ object: KubeObject; created: boolean }> {
    return applyObject(this.context, namespace, name, request, options);
  }

  /**
   * The admission of a POST to a subresource that writes through its own logic (eviction, binding,
   * token): what a create in `namespace` passes first, the namespace's lifecycle and the write
   * plugins. `ref` names the resource as the request did.
   */
  async admitSubresourceCreate(namespace: string, ref: ResourceRef): Promise<void> {
    await this.context.namespaces?.checkCreate(namespace, ref);
    this.context.admission?.checkWrite(ref);
  }

  delete(namespace: string, name: string, request: DeleteObjectRequest): Promise<DeleteResult> {
    return deleteObject(this.context, namespace, name, request);
  }

  /** The unsafe delete of an object whose stored value cannot be decoded; see deleteCorruptObject. */
  deleteCorrupt(namespace: string, name: string): Promise<CorruptDeleteResult> {
    return deleteCorruptObject(this.context, namespace, name);
  }
}
