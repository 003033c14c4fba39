/**
 * Authorization: each authorizer allows, denies or has no opinion about a request's attributes;
 * the first allow or deny decides (upstream's union authorizer).
 */
import type { UserInfo } from './user-info.js';
import { SYSTEM_MASTERS } from './authenticator.js';
import { firstDeciding, isPromise } from '../util/promises.js';

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

/** `--authorization-mode=AlwaysAllow`. */
export class AlwaysAllowAuthorizer implements Authorizer {
  authorize(): AuthorizationResult {
    return { decision: 'allow', reason: '' };
  }
}

/** `--authorization-mode=AlwaysDeny`: no opinion, so later authorizers may still allow. */
export class AlwaysDenyAuthorizer implements Authorizer {
  authorize(): AuthorizationResult {
    return { decision: 'no-opinion', reason: 'Everything is forbidden.' };
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

/** Asks each authorizer in order; the first allow or deny wins; reasons of the others are joined. */
export class UnionAuthorizer implements Authorizer {
  constructor(private readonly authorizers: readonly Authorizer[]) {}

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
export const IMPLEMENTED_AUTHORIZATION_MODES: readonly string[] = ['AlwaysAllow', 'AlwaysDeny'];
/** Upstream's other modes: valid names, not implemented yet. */
export const PLANNED_AUTHORIZATION_MODES: readonly string[] = ['ABAC', 'Webhook', 'RBAC', 'Node'];

/**
 * The authorizer for `--authorization-mode` values, behind the system:masters authorizer as
 * upstream. Throws for a mode not in {@link IMPLEMENTED_AUTHORIZATION_MODES}.
 */
export function buildAuthorizer(modes: readonly string[]): Authorizer {
  const byMode: Record<string, () => Authorizer> = {
    AlwaysAllow: () => new AlwaysAllowAuthorizer(),
    AlwaysDeny: () => new AlwaysDenyAuthorizer(),
  };
  return new UnionAuthorizer([
    new PrivilegedGroupsAuthorizer(),
    ...modes.map((mode) => {
      const create = byMode[mode];
      if (!create) throw new Error(`authorization mode ${mode} is not implemented`);
      return create();
    }),
  ]);
}
