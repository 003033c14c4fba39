/**
 * The one handler of every resource request: resolves the type from the path, checks that the
 * verb and subresource exist for it, and hands over to the verb's handler.
 */
import { ApiError, internalError, methodNotSupported, pathNotFound } from '../api/errors.js';
import type { Catalog } from '../registry/catalog/catalog.js';
import type { ResourceDefinition } from '../registry/catalog/resource-definition.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import type { Handler, RequestContext } from '../server/request-context.js';
import { rejectingThrows } from '../util/promises.js';
import { handleCreate } from './handlers/create.js';
import { handleDeleteCollection } from './handlers/delete-collection.js';
import { handleDelete } from './handlers/delete.js';
import { handleGet } from './handlers/get.js';
import { handleList } from './handlers/list.js';
import { handlePatch } from './handlers/patch.js';
import { handleUpdate } from './handlers/update.js';
import { handleWatch } from './handlers/watch.js';
import type { EndpointEnv, RequestScope } from './scope.js';
import { handleReview, isReviewResource, type Reviewers } from './virtual/reviews.js';
import { handleScale } from './subresources/scale.js';
import { handleEviction } from './subresources/eviction.js';
import { handleBinding, isBindingRequest } from './subresources/binding.js';
import { handleNodeBound, isNodeBound, type CoreStores } from './subresources/node-bound.js';
import { handleTokenRequest, type TokenRequests } from './subresources/token-request.js';

export interface ResourceHandlerDeps {
  readonly catalog: () => Catalog;
  readonly registry: Registry;
  readonly env: EndpointEnv;
  /** Answer the review resources; the authorizer also decides a force delete's extra verb. */
  readonly reviewers: Reviewers;
  /** Issues service account tokens (serviceaccounts/token); absent, that subresource is answered 405. */
  readonly tokens?: TokenRequests;
}

/** Subresources this server serves (the others are answered 405 until they exist). */
const SERVED_SUBRESOURCES = new Set(['token', 'status', 'finalize', 'scale', 'eviction', 'ephemeralcontainers', 'resize', 'binding', 'log', 'exec', 'attach', 'portforward', 'proxy', 'approval']);

export function createResourceHandler(deps: ResourceHandlerDeps): Handler {
  return rejectingThrows((ctx: RequestContext): Promise<void> => {
    const info = ctx.info;
    const definition = deps.catalog().resource(info.apiGroup, info.apiVersion, info.resource);
    if (!definition) throw pathNotFound();
    if (isReviewResource(definition) && info.verb === 'create' && info.subresource === '') {
      return handleReview(ctx, definition, info.namespace, deps.reviewers, deps.env);
    }
    const scope = resolveScope(ctx, definition, deps);
    const verb = info.verb;
    if (scope.subresource === 'scale') return handleScale(ctx, scope);
    if (scope.subresource === 'eviction') return handleEviction(ctx, scope, budgetStore(deps));
    if (isBindingRequest(scope)) return handleBinding(ctx, scope, coreStore(deps, 'pods'));
    if (isNodeBound(scope)) return handleNodeBound(ctx, scope, (resource) => coreStore(deps, resource));
    if (scope.subresource === 'token' && definition.group === '' && definition.resource === 'serviceaccounts' && deps.tokens) {
      return handleTokenRequest(ctx, scope, deps.tokens, (resource) => coreStore(deps, resource));
    }
    switch (verb) {
      case 'get': return handleGet(ctx, scope);
      case 'list': return handleList(ctx, scope);
      case 'watch': return handleWatch(ctx, scope);
      case 'create': return handleCreate(ctx, scope);
      case 'update': return handleUpdate(ctx, scope);
      case 'patch': return handlePatch(ctx, scope);
      case 'delete': return handleDelete(ctx, scope, deps.reviewers.authorizer);
      case 'deletecollection': return handleDeleteCollection(ctx, scope);
      default: throw methodNotSupported(scope.definition.resource, scope.definition.group, verb);
    }
  });
}

/** The store of a core v1 type (pods, nodes, endpoints, secrets: always served). */
function coreStore(deps: ResourceHandlerDeps, resource: Parameters<CoreStores>[0] | 'secrets'): ResourceStore {
  return deps.registry.storeFor(deps.catalog().resource('', 'v1', resource)!);
}

/** The store of PodDisruptionBudgets, which an eviction reads and spends. */
function budgetStore(deps: ResourceHandlerDeps): ResourceStore {
  const definition = deps.catalog().resource('policy', 'v1', 'poddisruptionbudgets');
  if (!definition) throw internalError('poddisruptionbudgets.policy/v1 is not served, so evictions cannot be checked against budgets');
  return deps.registry.storeFor(definition);
}

function resolveScope(ctx: RequestContext, definition: ResourceDefinition, deps: ResourceHandlerDeps): RequestScope {
  const info = ctx.info;
  const isNamespaceObject = definition.group === '' && definition.resource === 'namespaces';
  let namespace = info.namespace;
  if (!definition.namespaced) {
    if (namespace !== '' && !isNamespaceObject) throw pathNotFound();
    namespace = '';
  } else if (namespace === '' && (info.name !== '' || info.verb === 'create')) {
    throw pathNotFound();
  }
  checkVerb(definition, info.verb, info.subresource);
  return { definition, store: deps.registry.storeFor(definition), namespace, name: info.name, subresource: info.subresource, env: deps.env };
}

function checkVerb(definition: ResourceDefinition, verb: string, subresource: string): void {
  if (subresource === '') {
    if (!definition.verbs.includes(verb)) throw methodNotSupported(definition.resource, definition.group, verb);
    return;
  }
  const sub = definition.subresources[subresource];
  if (!sub) throw pathNotFound();
  if (!SERVED_SUBRESOURCES.has(subresource)) {
    throw new ApiError(405, 'MethodNotAllowed', `the ${subresource} subresource of ${definition.resource} is not implemented by this server yet`);
  }
  if (!sub.verbs.includes(verb)) throw methodNotSupported(`${definition.resource}/${subresource}`, definition.group, verb);
}
