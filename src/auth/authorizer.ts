/**
 * Authorization: each authorizer allows, denies or has no opinion about a request's attributes;
 * the first allow or deny decides (upstream's union authorizer).
 */
import type { UserInfo } from './user-info.js';
import { SYSTEM_MASTERS } from './authenticator.js';
import { firstDeciding, isPromise, NoneDecided } from '../util/promises.js';
import { RbacAuthorizer } from './rbac/rbac-authorizer.js';
import type { RbacPolicySource } from './rbac/rbac-types.js';
import { AbacAuthorizer } from './abac/abac-authorizer.js';
import { readAbacPolicyFile } from './abac/abac-policy.js';
import { goAggregate } from '../util/go-aggregate.js';
import { webhookAuthorizer, type WebhookAuthorizerSettings } from './webhook/build-webhook-authorizer.js';

/** What is being asked, as upstream's authorizer.Attributes. */
export interface AuthorizationAttributes {
  readonly user: UserInfo;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  /** For non-resource requests. */
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

/** A question about a resource: the verb, group and resource, and what else narrows it. */
export interface ResourceQuestion {
  readonly verb: string;
  readonly apiGroup: string;
  readonly resource: string;
  /** Empty: any version (upstream's reviews and impersonation checks leave it so). */
  readonly apiVersion?: string;
  readonly namespace?: string;
  readonly subresource?: string;
  readonly name?: string;
}

/**
 * The attributes of a resource question by `user`, as the server's own checks ask it (impersonation,
 * escalation, the unsafe delete, access reviews). Built in one place, in the field order of every
 * other AuthorizationAttributes, so that the authorizers reading them stay monomorphic.
 */
export function resourceAttributes(user: UserInfo, q: ResourceQuestion): AuthorizationAttributes {
  return {
    user,
    verb: q.verb,
    isResourceRequest: true,
    path: '',
    namespace: q.namespace ?? '',
    apiGroup: q.apiGroup,
    apiVersion: q.apiVersion ?? '',
    resource: q.resource,
    subresource: q.subresource ?? '',
    name: q.name ?? '',
  };
}

/** The attributes of a question about a URL path that names no resource (/healthz, /apis). */
export function nonResourceAttributes(user: UserInfo, verb: string, path: string): AuthorizationAttributes {
  return { user, verb, isResourceRequest: false, path, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

export type Decision = 'allow' | 'deny' | 'no-opinion';

export interface AuthorizationResult {
  readonly decision: Decision;
  /** Why; appended to the 403 message. */
  readonly reason: string;
  /**
   * Why the authorizer could not decide as it should (a webhook that cannot be reached). As
   * upstream, a request not allowed despite it fails with 500, and an access review reports it.
   */
  readonly error?: string;
}

export interface Authorizer {
  authorize(attributes: AuthorizationAttributes): Promise<AuthorizationResult> | AuthorizationResult;
}

/** What a user may do on resources, as a SelfSubjectRulesReview lists it. */
export interface ResourceRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
}

export interface NonResourceRule {
  readonly verbs: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** A user's rules in one namespace; `incomplete` when some authorizer could not list its own. */
export interface RuleSet {
  readonly resourceRules: readonly ResourceRule[];
  readonly nonResourceRules: readonly NonResourceRule[];
  readonly incomplete: boolean;
  readonly evaluationError?: string;
}

/** Lists what a user may do (upstream's RuleResolver), for `kubectl auth can-i --list`. */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): RuleSet;
}

const EVERYTHING: RuleSet = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};
const NOTHING: RuleSet = { resourceRules: [], nonResourceRules: [], incomplete: false };

/** `--authorization-mode=AlwaysAllow`. */
export class AlwaysAllowAuthorizer implements Authorizer, RuleResolver {
  authorize(): AuthorizationResult {
    return { decision: 'allow', reason: '' };
  }

  rulesFor(): RuleSet {
    return EVERYTHING;
  }
}

/** `--authorization-mode=AlwaysDeny`: no opinion, so later authorizers may still allow. */
export class AlwaysDenyAuthorizer implements Authorizer, RuleResolver {
  authorize(): AuthorizationResult {
    return { decision: 'no-opinion', reason: 'Everything is forbidden.' };
  }

  rulesFor(): RuleSet {
    return NOTHING;
  }
}

/** Allows members of the given groups everything (upstream puts system:masters first, always). */
export class PrivilegedGroupsAuthorizer implements Authorizer {
  private readonly groups: ReadonlySet<string>;
  constructor(groups: readonly string[] = [SYSTEM_MASTERS]) {
    this.groups = new Set(groups);
  }
  authorize(attributes: AuthorizationAttributes): AuthorizationResult {
    for (const group of attributes.user.groups) if (this.groups.has(group)) return PRIVILEGED;
    return NOT_PRIVILEGED;
  }
}

const PRIVILEGED: AuthorizationResult = { decision: 'allow', reason: '' };
const NOT_PRIVILEGED: AuthorizationResult = { decision: 'no-opinion', reason: '' };

/**
 * Asks each authorizer in order; the first allow or deny wins; reasons of the others are joined.
 * Its rules are all of its rule resolvers' rules together.
 */
export class UnionAuthorizer implements Authorizer, RuleResolver {
  constructor(
    private readonly authorizers: readonly Authorizer[],
    private readonly ruleResolvers: readonly RuleResolver[] = [],
  ) {}

  rulesFor(user: UserInfo, namespace: string): RuleSet {
    const sets = this.ruleResolvers.map((resolver) => resolver.rulesFor(user, namespace));
    const errors = sets.map((set) => set.evaluationError).filter((e): e is string => e !== undefined && e !== '');
    return {
      resourceRules: sets.flatMap((set) => set.resourceRules),
      nonResourceRules: sets.flatMap((set) => set.nonResourceRules),
      incomplete: sets.some((set) => set.incomplete),
      ...(errors.length > 0 ? { evaluationError: errors.join(', ') } : {}),
    };
  }

  /**
   * Synchronous for as long as the authorizers' answers are. A deciding answer comes with its own
   * error only; no decision comes with every authorizer's error, aggregated as upstream does.
   */
  authorize(attributes: AuthorizationAttributes): Promise<AuthorizationResult> | AuthorizationResult {
    const outcome = firstDeciding(this.authorizers, attributes, authorizeWith, decides);
    return isPromise(outcome) ? outcome.then(unionResult) : unionResult(outcome);
  }
}

const authorizeWith = (authorizer: Authorizer, attributes: AuthorizationAttributes): Promise<AuthorizationResult> | AuthorizationResult => authorizer.authorize(attributes);
const decides = (result: AuthorizationResult): boolean => result.decision !== 'no-opinion';

/** The deciding answer, or, when none decided, their reasons joined and their errors aggregated as upstream does. */
function unionResult(outcome: AuthorizationResult | NoneDecided<AuthorizationResult>): AuthorizationResult {
  if (!(outcome instanceof NoneDecided)) return outcome;
  const reasons = outcome.answers.map((r) => r.reason).filter((reason) => reason !== '');
  const errors = outcome.answers.flatMap((r) => (r.error === undefined ? [] : [r.error]));
  return { decision: 'no-opinion', reason: reasons.join('\n'), ...(errors.length > 0 ? { error: goAggregate(errors)[0]! } : {}) };
}

/** The authorization modes Capstan implements so far. */
export const IMPLEMENTED_AUTHORIZATION_MODES: readonly string[] = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC'];
/** Upstream's other modes: valid names, not implemented yet. */
export const PLANNED_AUTHORIZATION_MODES: readonly string[] = ['Node'];

/** Where authorizers report what the operator should know. */
export interface AuthorizerLog {
  warn(message: string): void;
  error(message: string): void;
}

/** What the modes read: RBAC the cluster's roles and bindings, ABAC its policy file, Webhook its kubeconfig. */
export interface AuthorizerSources {
  readonly rbac?: RbacPolicySource;
  /** --authorization-policy-file, read here when ABAC is among the modes. */
  readonly policyFile?: string;
  /** The --authorization-webhook-* options, used when Webhook is among the modes. */
  readonly webhook?: WebhookAuthorizerSettings;
  /** Warnings about the files read (an ABAC file with unversioned lines), failed webhook calls. */
  readonly log?: AuthorizerLog;
}

/**
 * The authorizer for `--authorization-mode` values, behind the system:masters authorizer as
 * upstream; its rules are the modes' rules (system:masters lists none of its own, as upstream).
 * Reads the files the modes need, synchronously. Throws for a mode not in
 * {@link IMPLEMENTED_AUTHORIZATION_MODES}, for RBAC without its source, and with upstream's words
 * for ABAC or Webhook without their file or with one that cannot be read.
 */
export function buildAuthorizer(modes: readonly string[], sources: AuthorizerSources = {}): Authorizer & RuleResolver {
  const byMode: Record<string, () => Authorizer & RuleResolver> = {
    AlwaysAllow: () => new AlwaysAllowAuthorizer(),
    AlwaysDeny: () => new AlwaysDenyAuthorizer(),
    RBAC: () => {
      if (!sources.rbac) throw new Error('authorization mode RBAC needs the cluster\'s roles and bindings');
      return new RbacAuthorizer(sources.rbac);
    },
    ABAC: () => abacAuthorizer(sources),
    Webhook: () => webhookAuthorizer(sources.webhook, sources.log),
  };
  const chosen = modes.map((mode) => {
    const create = byMode[mode];
    if (!create) throw new Error(`authorization mode ${mode} is not implemented`);
    return create();
  });
  return new UnionAuthorizer([new PrivilegedGroupsAuthorizer(), ...chosen], chosen);
}

function abacAuthorizer(sources: AuthorizerSources): AbacAuthorizer {
  const path = sources.policyFile;
  if (path === undefined || path === '') throw new Error('ABAC\'s authorization policy file not passed');
  const file = readAbacPolicyFile(path);
  if (file.unversionedLines > 0) {
    sources.log?.warn(`Policy file ${path} contained unversioned rules. See docs/admin/authorization.md#abac-mode for ABAC file format details.`);
  }
  return new AbacAuthorizer(file.policies);
}
