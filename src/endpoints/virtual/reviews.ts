/**
 * The review resources: virtual, create-only types that answer a question instead of storing an
 * object (who am I, may I do this, what may I do, whom does this token name). `kubectl auth
 * whoami`, `kubectl auth can-i` and `kubectl auth can-i --list` use them; components that take
 * bearer tokens ask TokenReview.
 */
import { badRequest } from '../../api/errors.js';
import { nonResourceAttributes, resourceAttributes, type Authorizer, type RuleResolver } from '../../auth/authorizer.js';
import type { ResourceDefinition } from '../../registry/catalog/resource-definition.js';
import { timestamp } from '../../registry/object.js';
import type { UserInfo } from '../../auth/user-info.js';
import type { AudienceBoundUser } from '../../auth/bearer-token-authenticator.js';
import type { RequestContext } from '../../server/request-context.js';
import { decodeObjectBody } from '../object-body.js';
import { negotiate, writeValue } from '../respond.js';
import type { EndpointEnv } from '../scope.js';

export function isReviewResource(definition: ResourceDefinition): boolean {
  return Object.hasOwn(ANSWERS, reviewKey(definition));
}

function reviewKey(definition: ResourceDefinition): string {
  return `${definition.group}/${definition.resource}`;
}

interface ResourceAttributes {
  namespace?: string; verb?: string; group?: string; version?: string; resource?: string; subresource?: string; name?: string;
}
interface NonResourceAttributes { path?: string; verb?: string }
interface AccessReviewSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
  user?: string;
  groups?: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

/** Who a bearer token names, in system:authenticated; undefined when no authenticator accepts it. */
export interface TokenReviewer {
  reviewToken(token: string, audiences?: readonly string[]): Promise<AudienceBoundUser | undefined>;
}

/** What answers the reviews. */
export interface Reviewers {
  readonly authorizer: Authorizer & RuleResolver;
  readonly tokens: TokenReviewer;
}

/** One review's request as its answer needs it. */
interface ReviewRequest {
  readonly definition: ResourceDefinition;
  /** The request's namespace (LocalSubjectAccessReview's). */
  readonly namespace: string;
  readonly body: Record<string, unknown> & { metadata?: unknown };
  /** Who sent it. */
  readonly user: UserInfo;
  readonly reviewers: Reviewers;
}

/** The review to send back, given the request: its metadata and spec (echoed or not) and status. */
type Answer = (review: ReviewRequest) => Promise<Record<string, unknown>> | Record<string, unknown>;

/** Each review resource (`group/resource`) and how it is answered. */
const ANSWERS: Readonly<Record<string, Answer>> = {
  'authentication.k8s.io/selfsubjectreviews': ({ user }) => ({ metadata: { creationTimestamp: timestamp(Date.now()) }, status: { userInfo: userInfoOf(user) } }),
  'authentication.k8s.io/tokenreviews': answerTokenReview,
  'authorization.k8s.io/selfsubjectrulesreviews': answerRulesReview,
  'authorization.k8s.io/selfsubjectaccessreviews': answerAccessReview,
  'authorization.k8s.io/subjectaccessreviews': answerAccessReview,
  'authorization.k8s.io/localsubjectaccessreviews': answerAccessReview,
};

/** Serves a create of a review: 201 with the review and its answer in status. */
export async function handleReview(
  ctx: RequestContext,
  definition: ResourceDefinition,
  namespace: string,
  reviewers: Reviewers,
  env: EndpointEnv,
): Promise<void> {
  const out = negotiate(ctx, env.codecs, { table: false, partialObjectMetadata: false });
  const body = await decodeObjectBody(ctx, definition, env);
  const user = ctx.user ?? { name: 'system:anonymous', groups: ['system:unauthenticated'] };
  const answer = await ANSWERS[reviewKey(definition)]!({ definition, namespace, body, user, reviewers });
  await writeValue(ctx, 201, { kind: definition.kind, apiVersion: `${definition.group}/${definition.version}`, ...answer }, out);
}

/** The request's spec, or an empty one; its fields are checked where they are used. */
function specOf<Spec>(body: ReviewRequest['body']): Spec {
  return (body['spec'] ?? {}) as Spec;
}

/** The request's own metadata, as upstream sends back the review it was given. */
function echoedMetadata(body: ReviewRequest['body']): Record<string, unknown> {
  return { ...((body.metadata ?? {}) as object), creationTimestamp: null };
}

async function answerTokenReview({ body, reviewers }: ReviewRequest): Promise<Record<string, unknown>> {
  const { token, audiences } = specOf<{ token?: unknown; audiences?: unknown }>(body);
  if (typeof token !== 'string' || token === '') throw badRequest('token is required for TokenReview in authentication');
  const wanted = Array.isArray(audiences) ? audiences.filter((a): a is string => typeof a === 'string') : [];
  const reviewed = await reviewers.tokens.reviewToken(token, wanted);
  const status = reviewed
    ? { authenticated: true, user: userInfoOf(reviewed.user), audiences: [...reviewed.audiences] }
    : { user: {}, error: 'invalid bearer token' };
  return { metadata: echoedMetadata(body), spec: body['spec'], status };
}

function answerRulesReview({ body, user, reviewers }: ReviewRequest): Record<string, unknown> {
  const { namespace } = specOf<{ namespace?: unknown }>(body);
  if (typeof namespace !== 'string' || namespace === '') throw badRequest('no namespace on request');
  // Upstream answers with a new review: the spec is not echoed.
  return { metadata: { creationTimestamp: null }, spec: {}, status: reviewers.authorizer.rulesFor(user, namespace) };
}

async function answerAccessReview({ definition, namespace, body, user, reviewers }: ReviewRequest): Promise<Record<string, unknown>> {
  const spec = specOf<AccessReviewSpec>(body);
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    throw badRequest(`${definition.kind}.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified`);
  }
  const subject: UserInfo = definition.resource.startsWith('self')
    ? user
    : { name: spec.user ?? '', groups: spec.groups ?? [], ...(spec.uid ? { uid: spec.uid } : {}), ...(spec.extra ? { extra: spec.extra } : {}) };
  const r = spec.resourceAttributes;
  const attributes = r
    ? resourceAttributes(subject, {
        verb: r.verb ?? '',
        namespace: definition.resource === 'localsubjectaccessreviews' ? namespace : r.namespace ?? '',
        apiGroup: r.group ?? '', apiVersion: r.version ?? '', resource: r.resource ?? '', subresource: r.subresource ?? '', name: r.name ?? '',
      })
    : nonResourceAttributes(subject, spec.nonResourceAttributes!.verb ?? '', spec.nonResourceAttributes!.path ?? '');
  const result = await reviewers.authorizer.authorize(attributes);
  const status: Record<string, unknown> = { allowed: result.decision === 'allow' };
  if (result.decision === 'deny') status['denied'] = true;
  if (result.reason) status['reason'] = result.reason;
  if (result.error) status['evaluationError'] = result.error;
  return { metadata: echoedMetadata(body), spec, status };
}

function userInfoOf(user: UserInfo): Record<string, unknown> {
  const info: Record<string, unknown> = { username: user.name };
  if (user.uid) info['uid'] = user.uid;
  info['groups'] = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) info['extra'] = user.extra;
  return info;
}
