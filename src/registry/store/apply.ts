/**
 * Server-side apply: the configuration is merged into the stored object by the type's field
 * manager inside the update loop (a concurrent change is merged into afresh), or, when there is no
 * object, becomes a new one.
 */
import { ApiError, badRequest, isAlreadyExists, isNotFound } from '../../api/errors.js';
import { metaOf, timestamp, type KubeObject } from '../object.js';
import { createObject } from './create.js';
import type { StoreContext, WriteOptions } from './store-context.js';
import { guaranteedUpdate } from './update.js';

/** An apply's write options: it records its own manager, so it takes none to record. */
export type ApplyOptions = Omit<WriteOptions, 'manager' | 'managerSubresource'>;

export interface ApplyRequest {
  readonly config: KubeObject;
  readonly manager: string;
  readonly force: boolean;
  /** Checks the merged object as a decoded body is checked (schema, unknown fields); returns the object to write. */
  readonly check: (object: KubeObject) => KubeObject;
}

/** Applies `request.config` to the object `name`. Throws what create and update throw, and 409 for apply conflicts. */
export async function applyObject(
  ctx: StoreContext,
  namespace: string,
  name: string,
  request: ApplyRequest,
  options: ApplyOptions,
): Promise<{ object: KubeObject; created: boolean }> {
  const fields = ctx.fields;
  if (!fields) throw new ApiError(415, 'UnsupportedMediaType', `server-side apply is not available for ${ctx.definition.resource}`);
  const configName = request.config.metadata?.name;
  if (configName !== undefined && configName !== name) {
    throw badRequest(`the name of the object (${String(configName)}) does not match the name on the URL (${name})`);
  }
  const writer = () => ({ manager: request.manager, subresource: options.subresource, now: timestamp(ctx.clock()) });
  const update = () =>
    guaranteedUpdate(ctx, namespace, name, (current) => request.check(fields.apply(current, request.config, writer(), request.force)), { ...options, retryOnConflict: true });
  let result;
  try {
    result = await update();
  } catch (err) {
    if (!isNotFound(err) || options.subresource !== '') throw err;
    const object = request.check(fields.apply(undefined, request.config, writer(), request.force));
    metaOf(object).name = name;
    try {
      return { object: await createObject(ctx, namespace, object, options), created: true };
    } catch (createErr) {
      // Created by someone else meanwhile: apply to theirs.
      if (!isAlreadyExists(createErr)) throw createErr;
      result = await update();
    }
  }
  return { object: result.object, created: false };
}
