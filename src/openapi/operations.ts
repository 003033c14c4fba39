/**
 * The HTTP operations of a served group-version, derived from the catalog, in a neutral form that
 * the Swagger 2.0 and OpenAPI 3.0 renderers both turn into path items.
 */
import type { CatalogGroupVersion } from '../registry/catalog/catalog.js';
import type { GroupVersionKind, ResourceDefinition } from '../registry/catalog/resource-definition.js';
import { groupVersionWord, operationId, operationTag } from './operation-names.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
export const DELETE_OPTIONS = `${META}.DeleteOptions`;
export const STATUS = `${META}.Status`;
export const WATCH_EVENT = `${META}.WatchEvent`;
export const PATCH = `${META}.Patch`;
export const API_RESOURCE_LIST = `${META}.APIResourceList`;

export type ParameterType = 'string' | 'integer' | 'boolean';
export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly type: ParameterType;
  readonly required?: boolean;
}

/** What a response or request body is: a definition, or plain text (logs, connect streams). */
export type Body = { readonly schema: string } | { readonly text: true };

export interface Operation {
  readonly method: 'get' | 'put' | 'post' | 'patch' | 'delete' | 'head' | 'options';
  readonly operationId: string;
  readonly tag: string;
  /** x-kubernetes-action; absent on discovery operations. */
  readonly action?: string;
  readonly gvk?: GroupVersionKind;
  readonly parameters: readonly Parameter[];
  readonly request?: Body & { readonly patch?: boolean };
  readonly response?: Body;
  /** Status codes answered with `response` (401 is added by the renderers). */
  readonly codes: readonly string[];
  /** Whether the response may also be a stream of watch events. */
  readonly streams?: boolean;
}

export interface PathItem {
  readonly path: string;
  readonly parameters: readonly Parameter[];
  readonly operations: readonly Operation[];
}

const q = (name: string, type: ParameterType = 'string'): Parameter => ({ name, in: 'query', type });
const p = (name: string): Parameter => ({ name, in: 'path', type: 'string', required: true });
const PRETTY = q('pretty');
const LIST_QUERY = [
  q('allowWatchBookmarks', 'boolean'), q('continue'), q('fieldSelector'), q('labelSelector'), q('limit', 'integer'),
  q('resourceVersion'), q('resourceVersionMatch'), q('sendInitialEvents', 'boolean'), q('timeoutSeconds', 'integer'), q('watch', 'boolean'),
];
const WRITE_QUERY = [q('dryRun'), q('fieldManager'), q('fieldValidation')];
const DELETE_QUERY = [
  q('dryRun'), q('gracePeriodSeconds', 'integer'), q('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean'),
  q('orphanDependents', 'boolean'), q('propagationPolicy'),
];
const DELETE_COLLECTION_QUERY = [
  q('continue'), ...DELETE_QUERY, q('fieldSelector'), q('labelSelector'), q('limit', 'integer'),
  q('resourceVersion'), q('resourceVersionMatch'), q('sendInitialEvents', 'boolean'), q('timeoutSeconds', 'integer'),
].sort((a, b) => (a.name < b.name ? -1 : 1));
const CONNECT_METHODS = { get: 'Get', post: 'Post', put: 'Put', patch: 'Patch', delete: 'Delete', head: 'Head', options: 'Options' } as const;

/** Every path item of one group-version, sorted by path as upstream lists them. */
export function groupVersionPaths(gv: CatalogGroupVersion): PathItem[] {
  const prefix = gv.group === '' ? `/api/${gv.version}` : `/apis/${gv.group}/${gv.version}`;
  const items: PathItem[] = [{
    path: `${prefix}/`,
    parameters: [],
    operations: [{
      method: 'get', operationId: `get${groupVersionWord(gv.group, gv.version)}APIResources`,
      tag: operationTag(gv.group, gv.version), parameters: [], response: { schema: API_RESOURCE_LIST }, codes: ['200'],
    }],
  }];
  for (const def of gv.resources) items.push(...resourcePaths(prefix, def));
  return items.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function resourcePaths(prefix: string, def: ResourceDefinition): PathItem[] {
  const gvk: GroupVersionKind = { group: def.group, version: def.version, kind: def.kind };
  const tag = operationTag(def.group, def.version);
  const scope = def.namespaced ? 'Namespaced' : '';
  const base = def.namespaced ? `${prefix}/namespaces/{namespace}/${def.resource}` : `${prefix}/${def.resource}`;
  const scopeParams = def.namespaced ? [p('namespace')] : [];
  const id = (verb: string, sub = '', s = scope) => operationId(verb, def.group, def.version, def.kind, s, sub);
  const op = (o: Omit<Operation, 'tag' | 'gvk'> & { gvk?: GroupVersionKind }): Operation => ({ tag, gvk, ...o });
  const has = (verb: string) => def.verbs.includes(verb);
  const objectBody = def.schema === undefined ? undefined : { schema: def.schema };
  const listBody = def.schema === undefined ? undefined : { schema: def.schema.replace(/[^.]+$/, def.listKind) };
  const items: PathItem[] = [];

  const collection: Operation[] = [];
  if (has('list')) collection.push(op({ method: 'get', action: 'list', operationId: id('list'), parameters: LIST_QUERY, response: listBody, codes: ['200'], streams: true }));
  if (has('create')) collection.push(op({ method: 'post', action: 'post', operationId: id('create'), parameters: WRITE_QUERY, request: objectBody, response: objectBody, codes: ['200', '201', '202'] }));
  if (has('deletecollection')) collection.push(op({ method: 'delete', action: 'deletecollection', operationId: id('deletecollection'), parameters: DELETE_COLLECTION_QUERY, request: { schema: DELETE_OPTIONS }, response: { schema: STATUS }, codes: ['200'] }));
  if (collection.length > 0) items.push({ path: base, parameters: [...scopeParams, PRETTY], operations: collection });

  const single: Operation[] = [];
  if (has('get')) single.push(op({ method: 'get', action: 'get', operationId: id('read'), parameters: [], response: objectBody, codes: ['200'] }));
  if (has('update')) single.push(op({ method: 'put', action: 'put', operationId: id('replace'), parameters: WRITE_QUERY, request: objectBody, response: objectBody, codes: ['200', '201'] }));
  if (has('patch')) single.push(op({ method: 'patch', action: 'patch', operationId: id('patch'), parameters: [...WRITE_QUERY, q('force', 'boolean')], request: { schema: PATCH, patch: true }, response: objectBody, codes: ['200', '201'] }));
  if (has('delete')) single.push(op({ method: 'delete', action: 'delete', operationId: id('delete'), parameters: DELETE_QUERY, request: { schema: DELETE_OPTIONS }, response: { schema: STATUS }, codes: ['200', '202'] }));
  if (single.length > 0) items.push({ path: `${base}/{name}`, parameters: [p('name'), ...scopeParams, PRETTY], operations: single });

  if (has('watch')) {
    const watchBase = def.namespaced ? `${prefix}/watch/namespaces/{namespace}/${def.resource}` : `${prefix}/watch/${def.resource}`;
    const watch = (action: string, verb: string, s = scope): Operation => op({ method: 'get', action, operationId: id(verb, '', s), parameters: [], response: { schema: WATCH_EVENT }, codes: ['200'], streams: true });
    items.push({ path: watchBase, parameters: [...LIST_QUERY, ...scopeParams, PRETTY].sort(byName), operations: [watch('watchlist', 'watchlist')] });
    items.push({ path: `${watchBase}/{name}`, parameters: [...LIST_QUERY, p('name'), ...scopeParams, PRETTY].sort(byName), operations: [watch('watch', 'watch')] });
    if (def.namespaced) items.push({ path: `${prefix}/watch/${def.resource}`, parameters: [...LIST_QUERY, PRETTY].sort(byName), operations: [watch('watchlist', 'watchlist', 'ForAllNamespaces')] });
  }
  if (def.namespaced && has('list')) {
    items.push({ path: `${prefix}/${def.resource}`, parameters: [...LIST_QUERY, PRETTY].sort(byName), operations: [op({ method: 'get', action: 'list', operationId: id('list', '', 'ForAllNamespaces'), parameters: [], response: listBody, codes: ['200'], streams: true })] });
  }
  for (const sub of Object.values(def.subresources)) {
    const subGvk: GroupVersionKind = { group: sub.group ?? def.group, version: sub.version ?? def.version, kind: sub.kind };
    const body: Body = sub.schema === undefined ? { text: true } : { schema: sub.schema };
    const subOps: Operation[] = [];
    const connect = sub.schema === undefined && sub.name !== 'log';
    const methods = connect ? connectMethods(sub.verbs) : [];
    for (const method of methods) {
      subOps.push(op({ method, action: 'connect', gvk: subGvk, operationId: id(`connect${CONNECT_METHODS[method]}`, sub.name), parameters: [], response: { text: true }, codes: ['200'] }));
    }
    if (!connect) {
      if (sub.verbs.includes('get')) subOps.push(op({ method: 'get', action: 'get', gvk: subGvk, operationId: id('read', sub.name), parameters: [], response: body, codes: ['200'] }));
      if (sub.verbs.includes('create')) subOps.push(op({ method: 'post', action: 'post', gvk: subGvk, operationId: id('create', sub.name), parameters: WRITE_QUERY, request: body, response: body, codes: ['200', '201', '202'] }));
      if (sub.verbs.includes('update')) subOps.push(op({ method: 'put', action: 'put', gvk: subGvk, operationId: id('replace', sub.name), parameters: WRITE_QUERY, request: body, response: body, codes: ['200', '201'] }));
      if (sub.verbs.includes('patch')) subOps.push(op({ method: 'patch', action: 'patch', gvk: subGvk, operationId: id('patch', sub.name), parameters: [...WRITE_QUERY, q('force', 'boolean')], request: { schema: PATCH, patch: true }, response: body, codes: ['200', '201'] }));
    }
    const subParams = [p('name'), ...scopeParams];
    items.push({ path: `${base}/{name}/${sub.name}`, parameters: connect ? subParams : [...subParams, PRETTY], operations: subOps });
    if (sub.name === 'proxy') items.push({ path: `${base}/{name}/proxy/{path}`, parameters: [...subParams, p('path')], operations: subOps });
  }
  return items;
}

/** Connect subresources answer every HTTP method their verbs allow; proxies also HEAD and OPTIONS. */
function connectMethods(verbs: readonly string[]): (keyof typeof CONNECT_METHODS)[] {
  const byVerb = { get: 'get', create: 'post', update: 'put', patch: 'patch', delete: 'delete' } as const;
  const methods: (keyof typeof CONNECT_METHODS)[] = verbs.map((v) => byVerb[v as keyof typeof byVerb]).filter((m) => m !== undefined);
  if (verbs.includes('update') && verbs.includes('delete')) methods.push('head', 'options');
  return methods.sort();
}

const byName = (a: Parameter, b: Parameter): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
