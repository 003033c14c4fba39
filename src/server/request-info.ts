/**
 * Turns a request's method, path and query into a {@link RequestInfo}, following upstream's
 * RequestInfoFactory (k8s.io/apiserver/pkg/endpoints/request) so that authorization, limits,
 * timeouts and routing all see a request the way the upstream server would.
 *
 * Worked example: `GET /api/v1/namespaces/ns1/pods/p1/log`
 *   prefix "api" (groupless) -> version "v1" -> "namespaces" + "ns1" -> parts [pods, p1, log]
 *   -> resource "pods", name "p1", subresource "log", verb "get".
 * `GET /apis/apps/v1/deployments?watch=1` -> group "apps", parts [deployments], no name -> "watch".
 */
import type { RequestInfo } from './request-context.js';
import { queryBool } from '../serialization/go-query-values.js';

/** Path segments that are verbs, not resources (`/api/v1/watch/pods`). */
const SPECIAL_VERBS = new Set(['proxy', 'watch']);
/** Special verbs whose paths carry no subresource. */
const SPECIAL_VERBS_WITHOUT_SUBRESOURCES = new Set(['proxy']);
/**
 * Subresources of a namespace: `/api/v1/namespaces/ns1/status` is the namespace's status, not a
 * resource named "status" inside ns1.
 */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** Thrown (with the best-known info) when a resource path is too short to name a resource. */
export class RequestInfoError extends Error {
  override readonly name = 'RequestInfoError';
  constructor(message: string, readonly info: RequestInfo) {
    super(message);
  }
}

export interface RequestInfoResolverOptions {
  /** Path prefixes of resource APIs, without slashes. Default: api, apis. */
  readonly apiPrefixes?: readonly string[];
  /** Prefixes whose next segment is the version, not a group. Default: api. */
  readonly grouplessApiPrefixes?: readonly string[];
}

/** Parses request paths; one instance per server, stateless after construction. */
export class RequestInfoResolver {
  private readonly apiPrefixes: ReadonlySet<string>;
  private readonly grouplessApiPrefixes: ReadonlySet<string>;

  constructor(options: RequestInfoResolverOptions = {}) {
    this.apiPrefixes = new Set(options.apiPrefixes ?? ['api', 'apis']);
    this.grouplessApiPrefixes = new Set(options.grouplessApiPrefixes ?? ['api']);
  }

  /**
   * Parses one request. `path` is the decoded URL path (no query). Throws {@link RequestInfoError}
   * for a special-verb path without a resource (`/api/v1/watch`), as upstream does.
   */
  resolve(method: string, path: string, query: URLSearchParams): RequestInfo {
    const segments = splitPath(path);
    if (segments.length < 3 || !this.apiPrefixes.has(segments[0]!)) return nonResourceInfo(method, path, segments);
    const apiPrefix = segments[0]!;
    // The next segment to read.
    let at = 1;
    let apiGroup = '';
    if (!this.grouplessApiPrefixes.has(apiPrefix)) {
      if (segments.length - at < 3) return nonResourceInfo(method, path, segments);
      apiGroup = segments[at++]!;
    }
    const apiVersion = segments[at++]!;

    let verb: string;
    if (SPECIAL_VERBS.has(segments[at]!)) {
      if (segments.length - at < 2) {
        const info = resourceInfo(path, segments[at]!, apiPrefix, apiGroup, apiVersion, '', '', '', '', []);
        throw new RequestInfoError(`unable to determine kind and namespace from url, ${path}`, info);
      }
      verb = segments[at++]!;
    } else {
      verb = verbForMethod(method);
    }

    let namespace = '';
    if (segments[at] === 'namespaces' && segments.length - at > 1) {
      namespace = segments[at + 1]!;
      if (segments.length - at > 2 && !NAMESPACE_SUBRESOURCES.has(segments[at + 2]!)) at += 2;
    }

    const parts = segments.slice(at);
    const resource = parts[0] ?? '';
    let name = parts[1] ?? '';
    const subresource = parts.length >= 3 && !SPECIAL_VERBS_WITHOUT_SUBRESOURCES.has(verb) ? parts[2]! : '';

    if (name === '' && verb === 'get') {
      verb = queryBool(query, 'watch') ? 'watch' : 'list';
      // Upstream names the object a list or watch is limited to, so that authorization can allow
      // `list` of one named object (e.g. an informer on a single object).
      name = exactNameFromFieldSelector(query.get('fieldSelector')) ?? '';
    }
    if (name === '' && verb === 'delete') verb = 'deletecollection';

    return resourceInfo(path, verb, apiPrefix, apiGroup, apiVersion, namespace, resource, subresource, name, parts);
  }
}

/**
 * A resource request's info. Built in one place, in the same field order as
 * {@link nonResourceInfo}, so that every RequestInfo has one shape and the code reading them stays
 * monomorphic.
 */
function resourceInfo(
  path: string,
  verb: string,
  apiPrefix: string,
  apiGroup: string,
  apiVersion: string,
  namespace: string,
  resource: string,
  subresource: string,
  name: string,
  parts: readonly string[],
): RequestInfo {
  return { isResourceRequest: true, path, verb, apiPrefix, apiGroup, apiVersion, namespace, resource, subresource, name, parts };
}

function verbForMethod(method: string): string {
  switch (method.toUpperCase()) {
    case 'POST':
      return 'create';
    case 'GET':
    case 'HEAD':
      return 'get';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return 'delete';
    default:
      return '';
  }
}

/**
 * `metadata.name=x` or `metadata.name==x` among the selector's AND-ed terms, when x is a valid
 * path segment name; undefined otherwise.
 */
function exactNameFromFieldSelector(selector: string | null): string | undefined {
  if (!selector) return undefined;
  for (const term of splitSelectorTerms(selector)) {
    const match = /^([^=!]+?)\s*(==|=)\s*(.*)$/.exec(term);
    if (!match || match[1]!.trim() !== 'metadata.name') continue;
    const name = unescapeSelectorValue(match[3]!);
    return isValidPathSegmentName(name) ? name : undefined;
  }
  return undefined;
}

/** Splits on commas not escaped with a backslash (field selector escaping). */
function splitSelectorTerms(selector: string): string[] {
  const terms: string[] = [];
  let current = '';
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (c === '\\' && i + 1 < selector.length) {
      current += c + selector[++i];
    } else if (c === ',') {
      terms.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  terms.push(current);
  return terms.map((t) => t.trim()).filter((t) => t !== '');
}

function unescapeSelectorValue(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

function isValidPathSegmentName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}

/** Path segments without empty leading/trailing ones: "/api/v1/" -> ["api", "v1"]. */
function splitPath(path: string): string[] {
  let start = 0;
  let end = path.length;
  while (start < end && path.charCodeAt(start) === SLASH) start++;
  while (end > start && path.charCodeAt(end - 1) === SLASH) end--;
  return start === end ? [] : path.slice(start, end).split('/');
}

const SLASH = 0x2f;

/**
 * Long-running requests are exempt from the request timeout and the in-flight limits, as
 * upstream's BasicLongRunningRequestCheck: watch and proxy verbs, the streaming subresources, and
 * the profiler's paths (a CPU profile takes as many seconds as it is asked for).
 */
export function isLongRunning(info: RequestInfo): boolean {
  if (!info.isResourceRequest) return info.path.startsWith(PROFILER_PATHS);
  return LONG_RUNNING_VERBS.has(info.verb) || LONG_RUNNING_SUBRESOURCES.has(info.subresource);
}

const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);
const PROFILER_PATHS = '/debug/pprof/';

/** The RequestInfo of a request that names no resource (also the fallback for unparsable paths). */
export function nonResourceInfo(method: string, path: string, parts: readonly string[] = []): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts,
  };
}
