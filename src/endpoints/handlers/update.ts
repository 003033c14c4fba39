/**
 * PUT of a whole object (or its status): 200 with the updated object, or 201 when the type allows
 * create-on-update and the object was absent.
 */
import type { RequestContext } from '../../server/request-context.js';
import { decodeObjectBody } from '../object-body.js';
import { fieldManagerOf, isDryRun } from '../query-flags.js';
import { negotiate, writeObject } from '../respond.js';
import type { RequestScope } from '../scope.js';

export async function handleUpdate(ctx: RequestContext, scope: RequestScope): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs);
  const dryRun = isDryRun(ctx.query, 'UpdateOptions');
  const manager = fieldManagerOf(ctx.query, ctx.req.headers['user-agent'], 'UpdateOptions');
  const body = await decodeObjectBody(ctx, scope.definition, scope.env);
  const result = await scope.store.replace(scope.namespace, scope.name, body, { dryRun, subresource: scope.subresource, user: ctx.user, manager });
  await writeObject(ctx, result.created ? 201 : 200, result.object, scope.definition, out);
}
