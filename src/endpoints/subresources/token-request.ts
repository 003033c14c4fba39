/**
 * POST of a TokenRequest (authentication.k8s.io/v1) to serviceaccounts/{name}/token: issues a
 * signed token for the service account, optionally bound to a Pod, Secret or Node that must exist
 * (and, when the reference names a UID, be that very object), and answers 201 with the request,
 * its defaults filled in, and the token in its status. As upstream's TokenREST: the duration is
 * 10 minutes at least, 2^32 seconds at most, capped by --service-account-max-token-expiration,
 * and the audiences default to the server's (--api-audiences).
 */
import { badRequest, conflict, invalid } from '../../api/errors.js';
import type { TokenIssuer } from '../../auth/service-account/token-issuer.js';
import type { BoundObject } from '../../auth/service-account/token-claims.js';
import { subresourceBodyDefinition } from '../../registry/catalog/resource-definition.js';
import { metaOf, timestamp, type KubeObject } from '../../registry/object.js';
import type { ResourceStore } from '../../registry/store/resource-store.js';
import type { RequestContext } from '../../server/request-context.js';
import { requestCodec } from '../../serialization/content-type.js';
import { apiVersionMismatchError, decodeError, decodeObject, type GroupVersionKind } from '../../serialization/object-decode.js';
import { fieldInvalid } from '../../validation/field-errors.js';
import { checkedObject } from '../object-body.js';
import { fieldValidationOf } from '../query-flags.js';
import { contentTypeOf, readBody } from '../request-body.js';
import { negotiate, writeValue } from '../respond.js';
import type { RequestScope } from '../scope.js';

const TOKEN_REQUEST: GroupVersionKind = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' };
/** Defaulted by the v1 API when the request leaves it out. */
const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 10 * 60;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

export interface TokenRequests {
  readonly issuer: TokenIssuer;
  /** --api-audiences: a request that names none gets these. */
  readonly audiences: readonly string[];
  /** --service-account-max-token-expiration in seconds; 0: no cap. */
  readonly maxExpirationSeconds: number;
}

/** The stores a token can be bound to an object of. */
export type BindableStores = (resource: 'pods' | 'secrets' | 'nodes') => ResourceStore;

interface BoundObjectRef {
  readonly kind?: string;
  readonly apiVersion?: string;
  readonly name?: string;
  readonly uid?: string;
}

export async function handleTokenRequest(ctx: RequestContext, scope: RequestScope, tokens: TokenRequests, stores: BindableStores): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs, { table: false, partialObjectMetadata: false });
  const request = await decodeTokenRequest(ctx, scope);
  await scope.store.admitSubresourceCreate(scope.namespace, { resource: scope.definition.resource, group: '', name: scope.name });

  const spec = { ...((request['spec'] ?? {}) as Record<string, unknown>) };
  spec['expirationSeconds'] ??= DEFAULT_EXPIRATION_SECONDS;
  const expirationSeconds = spec['expirationSeconds'] as number;
  if (expirationSeconds < MIN_EXPIRATION_SECONDS) throw invalidDuration(expirationSeconds, 'may not specify a duration less than 10 minutes');
  if (expirationSeconds > MAX_EXPIRATION_SECONDS) throw invalidDuration(expirationSeconds, 'may not specify a duration larger than 2^32 seconds');

  const account = await scope.store.get(scope.namespace, scope.name, { kind: 'consistent' }, ctx.signal);
  const ref = spec['boundObjectRef'] as BoundObjectRef | null | undefined;
  const boundTo = ref ? await boundObject(ctx, scope, ref, stores) : undefined;
  const audiences = Array.isArray(spec['audiences']) && spec['audiences'].length > 0 ? (spec['audiences'] as string[]) : [...tokens.audiences];
  spec['audiences'] = audiences;
  if (tokens.maxExpirationSeconds > 0 && expirationSeconds > tokens.maxExpirationSeconds) spec['expirationSeconds'] = tokens.maxExpirationSeconds;

  const issued = await tokens.issuer.issue({
    serviceAccount: { namespace: scope.namespace, name: scope.name, uid: metaOf(account).uid ?? '' },
    ...(boundTo ? { boundTo } : {}),
    audiences,
    expirationSeconds: spec['expirationSeconds'] as number,
  });
  const answer = {
    kind: TOKEN_REQUEST.kind,
    apiVersion: `${TOKEN_REQUEST.group}/${TOKEN_REQUEST.version}`,
    metadata: { ...((request['metadata'] ?? {}) as object), creationTimestamp: null },
    spec,
    status: { token: issued.token, expirationTimestamp: timestamp(issued.expiresAt) },
  };
  await writeValue(ctx, 201, answer, out);
}

/** The TokenRequest in the body; unknown fields per fieldValidation. */
async function decodeTokenRequest(ctx: RequestContext, scope: RequestScope): Promise<KubeObject> {
  const body = await readBody(ctx);
  const codec = requestCodec(contentTypeOf(ctx), scope.env.codecs);
  const { object, gvk, strictErrors } = decodeObject(body, codec, { kind: TOKEN_REQUEST.kind, defaults: TOKEN_REQUEST });
  if (gvk.group !== TOKEN_REQUEST.group || gvk.version !== TOKEN_REQUEST.version) throw apiVersionMismatchError(gvk, TOKEN_REQUEST);
  if (gvk.kind !== TOKEN_REQUEST.kind) {
    throw decodeError(`the kind in the data (${gvk.kind}) does not match the expected kind (${TOKEN_REQUEST.kind})`, TOKEN_REQUEST.kind, body, gvk);
  }
  const definition = subresourceBodyDefinition(scope.definition, 'token');
  return checkedObject(ctx, definition, object as KubeObject, strictErrors, fieldValidationOf(ctx.query, 'CreateOptions'), scope.env.checkFields, gvk);
}

/** The object `ref` names, checked as upstream checks it; throws 400, 404 or 409. */
async function boundObject(ctx: RequestContext, scope: RequestScope, ref: BoundObjectRef, stores: BindableStores): Promise<BoundObject> {
  const apiVersion = ref.apiVersion ?? '';
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const kind = ref.kind ?? '';
  const name = ref.name ?? '';
  const at = { kind: 'consistent' } as const;
  let object: KubeObject;
  if (group === '' && kind === 'Pod') {
    object = await stores('pods').get(scope.namespace, name, at, ctx.signal);
    const spec = (object['spec'] ?? {}) as { serviceAccountName?: string };
    if (scope.name !== spec.serviceAccountName) {
      throw badRequest(`cannot bind token for serviceaccount ${JSON.stringify(scope.name)} to pod running with different serviceaccount name.`);
    }
  } else if (group === '' && kind === 'Secret') {
    object = await stores('secrets').get(scope.namespace, name, at, ctx.signal);
  } else if (group === '' && kind === 'Node') {
    object = await stores('nodes').get('', name, at, ctx.signal);
  } else {
    // Go's GroupVersionKind.String().
    throw badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  }
  const uid = metaOf(object).uid ?? '';
  if (ref.uid && ref.uid !== uid) {
    throw conflict(
      { resource: kind, group, name },
      `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  return { kind, name, uid };
}

function invalidDuration(value: number, detail: string) {
  return invalid(TOKEN_REQUEST.kind, TOKEN_REQUEST.group, '', [fieldInvalid('spec.expirationSeconds', value, detail)]);
}
