/**
 * Impersonation: a request with an Impersonate-User header (and optionally Impersonate-Group,
 * Impersonate-Uid and Impersonate-Extra-<key>) runs as the user those headers describe, once the
 * authorizer has let the requesting user `impersonate` each thing named; otherwise 403 Forbidden.
 * Groups, a uid or extras without a user are a 400. The headers are removed before the request
 * goes on, and the audit event records whom the request acted as.
 *
 * Worked example: alice sends `Impersonate-User: system:serviceaccount:ns1:builder`,
 * `Impersonate-Extra-Scopes: view`. The authorizer is asked whether alice may impersonate
 * serviceaccounts "builder" in ns1, then userextras/scopes "view" in authentication.k8s.io. If both
 * are allowed, the request runs as system:serviceaccount:ns1:builder, in the groups
 * system:serviceaccounts, system:serviceaccounts:ns1 and system:authenticated, with extra
 * {scopes: [view]}.
 */
import { badRequest, internalError } from '../../api/errors.js';
import { ANONYMOUS_USER, SYSTEM_AUTHENTICATED, SYSTEM_UNAUTHENTICATED } from '../../auth/authenticator.js';
import { resourceAttributes, type AuthorizationAttributes, type AuthorizationResult, type Authorizer } from '../../auth/authorizer.js';
import { forbiddenError } from '../../auth/forbidden-message.js';
import type { UserInfo } from '../../auth/user-info.js';
import { SERVICE_ACCOUNT_USER_PREFIX, serviceAccountGroups, serviceAccountUserName } from '../../auth/service-account-user.js';
import { firstDeciding, isPromise, NoneDecided, rejectingThrows } from '../../util/promises.js';
import { isDns1123Label, isDns1123Subdomain } from '../../validation/dns-names.js';
import type { Logger } from '../logger.js';
import type { Handler, Request, RequestContext } from '../request-context.js';

export interface ImpersonationDeps {
  /** Asked, for the requesting user, whether it may `impersonate` each thing the headers name. */
  readonly authorizer: Authorizer;
  readonly logger: Logger;
}

/** Node lower-cases header names; every header this filter reads starts with this. */
const HEADER_PREFIX = 'impersonate-';
const USER_HEADER = 'impersonate-user';
const GROUP_HEADER = 'impersonate-group';
const UID_HEADER = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';
const AUTHENTICATION_GROUP = 'authentication.k8s.io';

/** One thing a request asks to act as; each is authorized on its own. */
type Impersonated =
  | { readonly kind: 'User'; readonly name: string }
  | { readonly kind: 'ServiceAccount'; readonly namespace: string; readonly name: string }
  | { readonly kind: 'Group'; readonly name: string }
  | { readonly kind: 'UserExtra'; readonly key: string; readonly value: string }
  | { readonly kind: 'UID'; readonly uid: string };

/** What the Impersonate-* headers ask for, in upstream's order: user, groups, extras, uid. */
interface ImpersonationRequest {
  readonly items: readonly Impersonated[];
  readonly groupsSpecified: boolean;
}

/**
 * Wraps `handler` so that a request with Impersonate-* headers goes on as the user they describe:
 * sets `ctx.user` to that user, tells `ctx.audit`, and deletes the headers from `ctx.req.headers`
 * and `ctx.req.rawHeaders`. Rejects with 400 BadRequest for groups, a uid or extras without a user,
 * 403 Forbidden for the first thing the authorizer does not allow, 500 when no user was
 * authenticated. A request without such headers goes on untouched.
 */
export function withImpersonation(handler: Handler, deps: ImpersonationDeps): Handler {
  const proceed = (ctx: RequestContext, request: ImpersonationRequest, denied: Denial | undefined): Promise<void> => {
    if (denied) {
      deps.logger.info(`Forbidden: ${ctx.info.path}, Reason: ${JSON.stringify(denied.result.reason)}`, 4);
      throw forbiddenError(denied.attributes, denied.result.reason);
    }
    const user = impersonatedUser(request);
    if (deps.logger.enabled(4)) deps.logger.info(`${describeUser(ctx.user)} is impersonating ${describeUser(user)}`, 4);
    ctx.user = user;
    ctx.audit?.impersonatedUser(user);
    removeImpersonationHeaders(ctx.req);
    return handler(ctx);
  };
  const impersonate = rejectingThrows((ctx: RequestContext): Promise<void> => {
    const request = impersonationRequest(ctx.req.rawHeaders);
    if (request.items.length === 0) return handler(ctx);
    if (!ctx.user) throw internalError(new Error('no user found for request'));
    const denied = firstDenial(request.items.map((item) => attributesFor(item, ctx.user!)), deps.authorizer);
    return isPromise(denied) ? denied.then((d) => proceed(ctx, request, d)) : proceed(ctx, request, denied);
  });
  // The common case, no such header, costs one pass over the raw header names.
  return (ctx) => (hasImpersonationHeader(ctx.req.rawHeaders) ? impersonate(ctx) : handler(ctx));
}

/** Whether any header name starts with Impersonate- (names in rawHeaders keep the client's case). */
function hasImpersonationHeader(raw: readonly string[]): boolean {
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // 0x20 folds an upper-case ASCII letter to lower case: a cheap look at the first letter first.
    if (name.length >= HEADER_PREFIX.length && (name.charCodeAt(0) | 0x20) === 0x69 && name.slice(0, HEADER_PREFIX.length).toLowerCase() === HEADER_PREFIX) {
      return true;
    }
  }
  return false;
}

/**
 * The request's Impersonate-* headers as the things to authorize. Repeated headers are read one
 * line at a time from the raw list, since Node joins their values with commas. Throws 400 for
 * groups, extras or a uid without a user.
 */
function impersonationRequest(raw: readonly string[]): ImpersonationRequest {
  // The first line of each counts, even an empty one.
  let user: string | undefined;
  let uid: string | undefined;
  const groups: Impersonated[] = [];
  const extras = new Map<string, string[]>();
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!name.startsWith(HEADER_PREFIX)) continue;
    const value = raw[i + 1]!;
    if (name === USER_HEADER) user ??= value;
    else if (name === UID_HEADER) uid ??= value;
    else if (name === GROUP_HEADER) groups.push({ kind: 'Group', name: value });
    else if (name.startsWith(EXTRA_PREFIX)) appendValue(extras, unescapeExtraKey(name.slice(EXTRA_PREFIX.length)), value);
  }
  const others: Impersonated[] = [...groups];
  for (const [key, values] of extras) for (const value of values) others.push({ kind: 'UserExtra', key, value });
  if (uid) others.push({ kind: 'UID', uid });
  if (!user) {
    if (others.length > 0) throw badRequest(`requested ${goFormat(others)} without impersonating a user`);
    return { items: [], groupsSpecified: false };
  }
  return { items: [userOrServiceAccount(user), ...others], groupsSpecified: groups.length > 0 };
}

function appendValue(map: Map<string, string[]>, key: string, value: string): void {
  const values = map.get(key);
  if (values) values.push(value);
  else map.set(key, [value]);
}

/**
 * An extra's key with its %-escapes decoded (keys may hold characters a header name cannot); a
 * key with a malformed escape is kept as sent, as upstream keeps it.
 */
function unescapeExtraKey(key: string): string {
  if (!key.includes('%') || /%(?![0-9a-fA-F]{2})/.test(key)) return key;
  const bytes = key.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** A service account's username names the account (when its parts are valid names); any other, a user. */
function userOrServiceAccount(username: string): Impersonated {
  if (username.startsWith(SERVICE_ACCOUNT_USER_PREFIX)) {
    const parts = username.slice(SERVICE_ACCOUNT_USER_PREFIX.length).split(':');
    const [namespace, name] = parts;
    if (parts.length === 2 && isDns1123Label(namespace!).length === 0 && isDns1123Subdomain(name!).length === 0) {
      return { kind: 'ServiceAccount', namespace: namespace!, name: name! };
    }
  }
  return { kind: 'User', name: username };
}

/** The question put to the authorizer for one impersonated thing. */
function attributesFor(item: Impersonated, requester: UserInfo): AuthorizationAttributes {
  const verb = 'impersonate';
  switch (item.kind) {
    case 'User':
      return resourceAttributes(requester, { verb, apiGroup: '', resource: 'users', name: item.name });
    case 'ServiceAccount':
      return resourceAttributes(requester, { verb, apiGroup: '', resource: 'serviceaccounts', namespace: item.namespace, name: item.name });
    case 'Group':
      return resourceAttributes(requester, { verb, apiGroup: '', resource: 'groups', name: item.name });
    case 'UserExtra':
      return resourceAttributes(requester, { verb, apiGroup: AUTHENTICATION_GROUP, apiVersion: 'v1', resource: 'userextras', subresource: item.key, name: item.value });
    case 'UID':
      return resourceAttributes(requester, { verb, apiGroup: AUTHENTICATION_GROUP, apiVersion: 'v1', resource: 'uids', name: item.uid });
  }
}

interface Denial {
  readonly attributes: AuthorizationAttributes;
  readonly result: AuthorizationResult;
}

/** The first question the authorizer does not allow, asked in order; undefined when all are allowed. */
function firstDenial(questions: readonly AuthorizationAttributes[], authorizer: Authorizer): Denial | undefined | Promise<Denial | undefined> {
  const found = firstDeciding(questions, authorizer, answerOf, isDenial);
  return isPromise(found) ? found.then(denialOrNone) : denialOrNone(found);
}

function answerOf(attributes: AuthorizationAttributes, authorizer: Authorizer): Denial | Promise<Denial> {
  const result = authorizer.authorize(attributes);
  return isPromise(result) ? result.then((r) => ({ attributes, result: r })) : { attributes, result };
}

const isDenial = (answer: Denial): boolean => answer.result.decision !== 'allow';
const denialOrNone = (found: Denial | NoneDecided<Denial>): Denial | undefined => (found instanceof NoneDecided ? undefined : found);

/**
 * The user the request acts as. A service account has its two groups unless groups were given;
 * everyone but system:anonymous is in system:authenticated unless system:authenticated or
 * system:unauthenticated was given; system:anonymous is in system:unauthenticated.
 */
function impersonatedUser(request: ImpersonationRequest): UserInfo {
  let name = '';
  let uid = '';
  const groups: string[] = [];
  const extra = new Map<string, string[]>();
  for (const item of request.items) {
    if (item.kind === 'User') name = item.name;
    else if (item.kind === 'ServiceAccount') {
      name = serviceAccountUserName(item.namespace, item.name);
      if (!request.groupsSpecified) groups.push(...serviceAccountGroups(item.namespace));
    } else if (item.kind === 'Group') groups.push(item.name);
    else if (item.kind === 'UserExtra') appendValue(extra, item.key, item.value);
    else uid = item.uid;
  }
  if (name === ANONYMOUS_USER.name) {
    if (!groups.includes(SYSTEM_UNAUTHENTICATED)) groups.push(SYSTEM_UNAUTHENTICATED);
  } else if (!groups.includes(SYSTEM_AUTHENTICATED) && !groups.includes(SYSTEM_UNAUTHENTICATED)) {
    groups.push(SYSTEM_AUTHENTICATED);
  }
  return {
    name,
    ...(uid !== '' ? { uid } : {}),
    groups,
    ...(extra.size > 0 ? { extra: Object.fromEntries(extra) } : {}),
  };
}

/** Deletes the headers upstream deletes (user, group, uid, extras) from the parsed and the raw headers. */
function removeImpersonationHeaders(req: Request): void {
  const headers = req.headers as Record<string, unknown>;
  for (const name of Object.keys(headers)) {
    if (isRemoved(name)) delete headers[name];
  }
  const raw = req.rawHeaders;
  let kept = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (isRemoved(raw[i]!.toLowerCase())) continue;
    raw[kept] = raw[i]!;
    raw[kept + 1] = raw[i + 1]!;
    kept += 2;
  }
  raw.length = kept;
}

function isRemoved(lowerCaseName: string): boolean {
  return lowerCaseName === USER_HEADER || lowerCaseName === GROUP_HEADER || lowerCaseName === UID_HEADER || lowerCaseName.startsWith(EXTRA_PREFIX);
}

/**
 * The requested things as Go's %v prints upstream's list of ObjectReferences (Kind, Namespace,
 * Name, UID, APIVersion, ResourceVersion, FieldPath), which upstream's 400 message shows.
 */
function goFormat(items: readonly Impersonated[]): string {
  const reference = (item: Impersonated): string[] => {
    switch (item.kind) {
      case 'User':
      case 'Group':
        return [item.kind, '', item.name, '', '', '', ''];
      case 'ServiceAccount':
        return [item.kind, item.namespace, item.name, '', '', '', ''];
      case 'UserExtra':
        return [item.kind, '', item.value, '', `${AUTHENTICATION_GROUP}/v1`, '', item.key];
      case 'UID':
        return [item.kind, '', item.uid, '', `${AUTHENTICATION_GROUP}/v1`, '', ''];
    }
  };
  return `[${items.map((item) => `{${reference(item).join(' ')}}`).join(' ')}]`;
}

/** `name[group1,group2]`, as upstream's log line names the users. */
function describeUser(user: UserInfo | undefined): string {
  if (!user) return '<none>';
  const name = user.name === '' ? '<empty>' : user.name;
  return user.groups.length > 0 ? `${name}[${user.groups.join(',')}]` : name;
}
