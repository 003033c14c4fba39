/**
 * Authorization: each authorizer allows, denies or has no opinion about a request's attributes;
 * the first allow or deny decides (upstream's union authorizer).
 */
import type { UserInfo } from './user-info.js';
import { SYSTEM_MASTERS } from './authenticator.js';
import { firstDeciding, isPromise } from '../util/promises.js';
import { RbacAuthorizer } from './rbac/rbac-authorizer.js';
import type { RbacPolicySource } from './rbac/rbac-types.js';

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

export type Decision = 'allow' | 'deny' | 'no-opinion';

export interface AuthorizationResult {
  readonly decision: Decision;
  /** Why; appended to the 403 message. */
  readonly reason: string;
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
    const privileged = attributes.user.groups.some((g) => this.groups.has(g));
    return privileged ? { decision: 'allow', reason: '' } : { decision: 'no-opinion', reason: '' };
  }
}

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

  /** Synchronous for as long as the authorizers' answers are. */
  authorize(attributes: AuthorizationAttributes): Promise<AuthorizationResult> | AuthorizationResult {
    const reasons: string[] = [];
    const decided = firstDeciding(
      this.authorizers,
      (authorizer) => authorizer.authorize(attributes),
      (result) => result.decision !== 'no-opinion',
      (result) => {
        if (result.reason !== '') reasons.push(result.reason);
      },
    );
    const orNoOpinion = (result: AuthorizationResult | undefined): AuthorizationResult => result ?? { decision: 'no-opinion', reason: reasons.join('\n') };
    return isPromise(decided) ? decided.then(orNoOpinion) : orNoOpinion(decided);
  }
}

/** The authorization modes Capstan implements so far. */
export const IMPLEMENTED_AUTHORIZATION_MODES: readonly string[] = ['AlwaysAllow', 'AlwaysDeny', 'RBAC'];
/** Upstream's other modes: valid names, not implemented yet. */
export const PLANNED_AUTHORIZATION_MODES: readonly string[] = ['ABAC', 'Webhook', 'Node'];

/** What the modes read: RBAC needs the cluster's roles and bindings. */
export interface AuthorizerSources {
  readonly rbac?: RbacPolicySource;
}

/**
 * The authorizer for `--authorization-mode` values, behind the system:masters authorizer as
 * upstream; its rules are the modes' rules (system:masters lists none of its own, as upstream).
 * Throws for a mode not in {@link IMPLEMENTED_AUTHORIZATION_MODES}, and for RBAC without its source.
 */
export function buildAuthorizer(modes: readonly string[], sources: AuthorizerSources = {}): Authorizer & RuleResolver {
  const byMode: Record<string, () => Authorizer & RuleResolver> = {
    AlwaysAllow: () => new AlwaysAllowAuthorizer(),
    AlwaysDeny: () => new AlwaysDenyAuthorizer(),
    RBAC: () => {
      if (!sources.rbac) throw new Error('authorization mode RBAC needs the cluster\'s roles and bindings');
      return new RbacAuthorizer(sources.rbac);
    },
  };
  const chosen = modes.map((mode) => {
    const create = byMode[mode];
    if (!create) throw new Error(`authorization mode ${mode} is not implemented`);
    return create();
  });
  return new UnionAuthorizer([new PrivilegedGroupsAuthorizer(), ...chosen], chosen);
}
