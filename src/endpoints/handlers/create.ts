/** POST to a collection: decode, create, answer 201 with the stored object. */
import type { RequestContext } from '../../server/request-context.js';
import { decodeObjectBody, type FieldChecker } from '../object-body.js';
import { isDryRun } from '../query-flags.js';
import { writeObject } from '../respond.js';
import type { RequestScope } from '../scope.js';

export async function handleCreate(ctx: RequestContext, scope: RequestScope, checkFields: FieldChecker | undefined): Promise<void> {
  const dryRun = isDryRun(ctx.query);
  const body = await decodeObjectBody(ctx, scope.definition, checkFields);
  const created = await scope.store.create(scope.namespace, body, { dryRun, subresource: '' });
  writeObject(ctx, 201, created);
}
