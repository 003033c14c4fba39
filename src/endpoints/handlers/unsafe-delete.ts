/**
 * The endpoint's share of the force delete of a corrupt object (DeleteOptions
 * ignoreStoreReadErrorWithClusterBreakingPotential, behind the alpha feature gate
 * AllowUnsafeMalformedObjectDeletion): whether a request asks for it, the DeleteOptions it cannot
 * be combined with, the audit annotation, and the second permission it needs besides `delete`.
 * The removal itself is the store's (registry/store/delete-corrupt.ts).
 */
import { forbiddenOn, internalError, invalid, type ApiError, type FieldError } from '../../api/errors.js';
import { resourceAttributes, type AuthorizationResult, type Authorizer } from '../../auth/authorizer.js';
import { IGNORE_STORE_READ_ERROR } from '../../registry/store/delete-corrupt.js';
import { goQuote } from '../../serialization/go-format.js';
import type { RequestContext } from '../../server/request-context.js';
import { fieldInvalid } from '../../validation/field-errors.js';
import type { EndpointEnv, RequestScope } from '../scope.js';

export const UNSAFE_DELETE_GATE = 'AllowUnsafeMalformedObjectDeletion';
/** The verb a caller needs on the resource, besides `delete`. */
export const UNSAFE_DELETE_VERB = 'unsafe-delete-ignore-read-errors';
/** Marks the audit event of every request that asked for the force delete, allowed or not. */
export const UNSAFE_DELETE_AUDIT_ANNOTATION = 'apiserver.k8s.io/unsafe-delete-ignore-read-error';

/** The DeleteOptions the checks look at, as the delete handlers parse them. */
export interface UnsafeDeleteOptions {
  readonly ignoreStoreReadError?: boolean;
  readonly dryRun: boolean;
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: string;
  readonly orphanDependents?: boolean;
  readonly preconditions?: unknown;
}

/**
 * Whether a DELETE asks for the force delete: the option true and the gate on. With the gate off
 * the option is ignored altogether, as upstream drops it before anything looks at it. Throws 422
 * (DeleteOptions invalid) when it comes with an option the force delete would have to ignore.
 */
export function wantsUnsafeDelete(options: UnsafeDeleteOptions, env: EndpointEnv): boolean {
  if (options.ignoreStoreReadError !== true || env.featureGates?.[UNSAFE_DELETE_GATE] !== true) return false;
  const clashes = clashesOf(options);
  if (clashes.length > 0) throw deleteOptionsInvalid(clashes);
  return true;
}

/** A deletecollection may not force delete: 422 when it asks to (and the gate is on). */
export function refuseUnsafeDeleteCollection(options: UnsafeDeleteOptions, env: EndpointEnv): void {
  if (!wantsUnsafeDelete(options, env)) return;
  throw deleteOptionsInvalid([fieldInvalid(IGNORE_STORE_READ_ERROR, true, 'is not allowed with DELETECOLLECTION, try again after removing the option')]);
}

/** The options that must stay unset, in upstream's order. */
function clashesOf(options: UnsafeDeleteOptions): FieldError[] {
  const set: [string, boolean][] = [
    ['dryRun', options.dryRun],
    ['propagationPolicy', options.propagationPolicy !== undefined],
    ['orphanDependents', options.orphanDependents !== undefined],
    ['gracePeriodSeconds', options.gracePeriodSeconds !== undefined],
    ['preconditions', options.preconditions !== undefined],
  ];
  return set.filter(([, isSet]) => isSet).map(([field]) => fieldInvalid(IGNORE_STORE_READ_ERROR, true, `cannot be set together with .${field}`));
}

function deleteOptionsInvalid(errors: readonly FieldError[]): ApiError {
  return invalid('DeleteOptions', 'meta.k8s.io', '', errors);
}

/**
 * Records the attempt on the audit event, then asks `authorizer` whether the caller may also do
 * `unsafe-delete-ignore-read-errors` on the object. Throws 403 when not, when the authorizer
 * fails, or for a subresource.
 */
export async function authorizeUnsafeDelete(ctx: RequestContext, scope: RequestScope, authorizer: Authorizer): Promise<void> {
  ctx.audit?.annotate(UNSAFE_DELETE_AUDIT_ANNOTATION, '');
  if (scope.subresource !== '') {
    throw refused(scope, `${IGNORE_STORE_READ_ERROR} delete option is not allowed on a subresource or non-resource request`);
  }
  if (!ctx.user) throw internalError(new Error('no user found for request'));
  const attributes = resourceAttributes(ctx.user, {
    verb: UNSAFE_DELETE_VERB,
    namespace: scope.namespace,
    apiGroup: scope.definition.group,
    apiVersion: ctx.info.apiVersion,
    resource: scope.definition.resource,
    name: scope.name,
  });
  let result: AuthorizationResult;
  try {
    result = await authorizer.authorize(attributes);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw refused(scope, `error while checking permission for ${goQuote(UNSAFE_DELETE_VERB)}, ${why}`);
  }
  if (result.decision === 'allow') return;
  throw refused(scope, `not permitted to do ${goQuote(UNSAFE_DELETE_VERB)}, reason: ${result.reason}`);
}

/** Upstream's admission Forbidden: `configmaps "a" is forbidden: <why>`, naming the resource. */
function refused(scope: RequestScope, why: string): ApiError {
  const { group, resource } = scope.definition;
  return forbiddenOn({ resource, group, name: scope.name }, why);
}
