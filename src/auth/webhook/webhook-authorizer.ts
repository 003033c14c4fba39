/**
 * `--authorization-mode=Webhook`: each request is described in a SubjectAccessReview POSTed to the
 * server of --authorization-webhook-config-file, which answers allowed (allow), denied (deny: later
 * modes are not asked) or neither (no opinion), with a reason. Answers are cached by the review's
 * spec, allowed ones for --authorization-webhook-cache-authorized-ttl, others for
 * --authorization-webhook-cache-unauthorized-ttl, as upstream. A webhook that cannot be reached
 * (after upstream's retries) gives no opinion with an error, which fails the request with 500
 * unless a later mode allows it.
 */
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, RuleResolver, RuleSet } from '../authorizer.js';
import { ExpiringCache } from './expiring-cache.js';
import { parseReviewStatus, reviewBody, reviewSpec, type ReviewStatus } from './subject-access-review.js';

/** Sends a review body and resolves with the answer's body (after retries); rejects on failure. */
export interface ReviewSender {
  send(body: string): Promise<string>;
}

export interface WebhookAuthorizerOptions {
  readonly sender: ReviewSender;
  /** v1 or v1beta1. */
  readonly version: string;
  readonly authorizedTtlMs: number;
  readonly unauthorizedTtlMs: number;
  /** Where a failed review is reported. */
  readonly logError: (message: string) => void;
  readonly now?: () => number;
}

/** Upstream's cache size, in answers. */
const CACHE_ENTRIES = 8192;
/** Requests whose own attributes are longer than this are not cached: the cache must not be a way to fill memory. */
const MAX_CACHED_ATTRIBUTES_LENGTH = 10_000;

export class WebhookAuthorizer implements Authorizer, RuleResolver {
  private readonly cache: ExpiringCache<ReviewStatus>;

  constructor(private readonly options: WebhookAuthorizerOptions) {
    this.cache = new ExpiringCache(CACHE_ENTRIES, options.now);
  }

  async authorize(attributes: AuthorizationAttributes): Promise<AuthorizationResult> {
    const spec = reviewSpec(attributes);
    const key = JSON.stringify(spec);
    let status = this.cache.get(key);
    if (status === undefined) {
      try {
        status = parseReviewStatus(await this.options.sender.send(reviewBody(spec, this.options.version)));
      } catch (err) {
        const message = (err as Error).message;
        this.options.logError(`Failed to make webhook authorizer request: ${message}`);
        return { decision: 'no-opinion', reason: '', error: message };
      }
      if (cacheable(attributes)) this.cache.set(key, status, status.allowed ? this.options.authorizedTtlMs : this.options.unauthorizedTtlMs);
    }
    return decisionOf(status);
  }

  /** Upstream's webhook cannot list rules: it says so, and the list is incomplete. */
  rulesFor(): RuleSet {
    return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' };
  }
}

function decisionOf(status: ReviewStatus): AuthorizationResult {
  if (status.denied && status.allowed) return { decision: 'deny', reason: status.reason, error: 'webhook subject access review returned both allow and deny response' };
  if (status.denied) return { decision: 'deny', reason: status.reason };
  return { decision: status.allowed ? 'allow' : 'no-opinion', reason: status.reason };
}

function cacheable(a: AuthorizationAttributes): boolean {
  const fields = [a.namespace, a.verb, a.apiGroup, a.apiVersion, a.resource, a.subresource, a.name, a.path];
  return fields.reduce((sum, field) => sum + Buffer.byteLength(field), 0) < MAX_CACHED_ATTRIBUTES_LENGTH;
}
