/**
 * create: assign the generated fields, run the strategy, validate, and write (or, for a dry run,
 * only check that the name is free).
 */
import { alreadyExists, badRequest, fromStorageError, invalid, type FieldError } from '../../api/errors.js';
import { isStorageError } from '../../storage/errors.js';
import { encodeForStorage } from '../object-codec.js';
import { noteWritten } from '../written-json.js';
import { metaOf, timestamp, type KubeObject } from '../object.js';
import { generateName } from '../../validation/generate-name.js';
import { objectKey, refOf, type StoreContext, type WriteOptions } from './store-context.js';
import { validateMetadata } from './validate-metadata.js';
import { apiVersionOf } from '../catalog/resource-definition.js';

/** How many times a generated name is retried when it collides with an existing one. */
const GENERATE_NAME_ATTEMPTS = 5;

/**
 * Creates `object` (a private copy the caller gives up) in `namespace`. Returns the stored object.
 * Throws ApiErrors: 400 for a namespace mismatch, 404/403 from the namespace gate, 403 from write admission, 409 when the
 * name is taken, 422 for invalid objects.
 */
export async function createObject(ctx: StoreContext, namespace: string, object: KubeObject, options: WriteOptions): Promise<KubeObject> {
  const meta = metaOf(object);
  const d = ctx.definition;
  if (d.namespaced) {
    if (meta.namespace && meta.namespace !== namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    meta.namespace = namespace;
    // Upstream's create handler runs NamespaceLifecycle admission before anything checks the object
    // or generates its name: a create in a missing or terminating namespace is refused as such.
    const checking = ctx.namespaces?.checkCreate(namespace, refOf(ctx, meta.name || meta.generateName || ''));
    if (checking) await checking;
  } else {
    delete meta.namespace;
  }
  // Upstream names the object by the name its body gives, before any name is generated.
  if (options.user) ctx.admission?.checkWrite(refOf(ctx, meta.name ?? ''));
  if (meta.resourceVersion !== undefined && meta.resourceVersion !== '') {
    throw badRequest('resourceVersion should not be set on objects to be created');
  }
  delete meta.resourceVersion;
  if (ctx.guard && options.user) {
    const checking = ctx.guard.checkCreate(object, { user: options.user, namespace: d.namespaced ? namespace : '', name: '' });
    if (checking) await checking;
  }
  const now = ctx.clock();
  const strategyCtx = { now, dryRun: options.dryRun, subresource: '', user: options.user };
  meta.uid = ctx.newUid();
  meta.creationTimestamp = timestamp(now);
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  object.apiVersion = apiVersionOf(d);
  object.kind = d.kind;

  const generated = !meta.name && !!meta.generateName;
  if (generated) meta.name = generateName(meta.generateName!);
  ctx.strategy.prepareForCreate(object, strategyCtx);
  if (options.manager !== undefined) ctx.fields?.trackUpdate(undefined, object, { manager: options.manager, subresource: '', now: meta.creationTimestamp });
  const errors: FieldError[] = [...validateMetadata(ctx, object, undefined), ...ctx.strategy.validate(object, strategyCtx)];
  if (errors.length > 0) throw invalid(d.kind, d.group, meta.name ?? meta.generateName ?? '', errors);

  // Most types reserve nothing: their create is the write alone, without a settle to wait for.
  // (Awaited: an async function that returns a promise takes two more turns of the microtask queue.)
  if (!ctx.strategy.beginCreate) return await writeNew(ctx, namespace, object, options, generated);
  const reservation = await ctx.strategy.beginCreate(object, strategyCtx);
  let committed = false;
  try {
    const created = await writeNew(ctx, namespace, object, options, generated);
    committed = true;
    return created;
  } finally {
    await reservation?.settle(committed && !options.dryRun);
  }
}

/** Writes the new object, retrying a generated name that collides with an existing one. */
async function writeNew(ctx: StoreContext, namespace: string, object: KubeObject, options: WriteOptions, generated: boolean): Promise<KubeObject> {
  const meta = metaOf(object);
  for (let attempt = 1; ; attempt++) {
    const key = objectKey(ctx, namespace, meta.name!);
    try {
      if (options.dryRun) {
        const { kv } = await ctx.storage.get(key);
        if (kv) throw alreadyExists(refOf(ctx, meta.name!));
        return object;
      }
      const encoding = encodeForStorage(object);
      const written = await ctx.storage.create(key, encoding.bytes);
      meta.resourceVersion = String(written.revision);
      noteWritten(object, encoding);
      return object;
    } catch (err) {
      if (generated && attempt < GENERATE_NAME_ATTEMPTS && isStorageError(err, 'key-exists')) {
        meta.name = generateName(meta.generateName!);
        continue;
      }
      throw fromStorageError(err, refOf(ctx, meta.name!));
    }
  }
}
