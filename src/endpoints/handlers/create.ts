/** POST to a collection: decode, create, answer 201 with the stored object. */
import type { RequestContext } from '../../server/request-context.js';
import { decodeObjectBody } from '../object-body.js';
import { fieldManagerOf, isDryRun } from '../query-flags.js';
import { negotiate, writeObject } from '../respond.js';
import type { RequestScope } from '../scope.js';

export async function handleCreate(ctx: RequestContext, scope: RequestScope): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs);
  const dryRun = isDryRun(ctx.query, 'CreateOptions');
  const manager = fieldManagerOf(ctx.query, ctx.req.headers['user-agent'], 'CreateOptions');
  const body = await decodeObjectBody(ctx, scope.definition, scope.env);
  const created = await scope.store.create(scope.namespace, body, { dryRun, subresource: '', user: ctx.user, manager });
  await writeObject(ctx, 201, created, scope.definition, out);
}
