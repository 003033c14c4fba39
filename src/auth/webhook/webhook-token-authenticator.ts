/**
 * --authentication-token-webhook-config-file: a bearer token no other authenticator knows is sent
 * in a TokenReview to the webhook of that kubeconfig, which says whom it names. Answers, yes or
 * no, are kept for --authentication-token-webhook-cache-ttl (upstream's token cache, by the
 * token's hash); a webhook that cannot be reached (after upstream's retries) authenticates no
 * one and nothing is cached.
 */
import { createHash } from 'node:crypto';
import type { AudienceBoundUser, TokenAuthenticator } from '../bearer-token-authenticator.js';
import type { UserInfo } from '../user-info.js';
import { ExpiringCache } from './expiring-cache.js';
import { parseTokenReviewStatus, tokenReviewBody } from './token-review.js';
import type { ReviewSender } from './webhook-authorizer.js';

/** Upstream's token cache size, in answers. */
const CACHE_ENTRIES = 4096;

export interface WebhookTokenAuthenticatorOptions {
  readonly sender: ReviewSender;
  /** --api-audiences: what a request's token is asked about, and what a webhook that names no audiences is taken to mean. */
  readonly apiAudiences: readonly string[];
  /** v1 or v1beta1. */
  readonly version: string;
  readonly cacheTtlMs: number;
  /** Where failures and refusals are reported. */
  readonly log: (message: string) => void;
  readonly now?: () => number;
}

export class WebhookTokenAuthenticator implements TokenAuthenticator {
  /** By the token's SHA-256 and the audiences asked about: the cache holds no token in the clear. */
  private readonly cache: ExpiringCache<AudienceBoundUser | null>;

  constructor(private readonly options: WebhookTokenAuthenticatorOptions) {
    this.cache = new ExpiringCache(CACHE_ENTRIES, options.now);
  }

  async authenticateToken(token: string): Promise<UserInfo | undefined> {
    return (await this.authenticateTokenFor(token, this.options.apiAudiences))?.user;
  }

  /**
   * As upstream's: the review names the audiences asked about; the webhook's answer must name one
   * of them, or, naming none, is taken for the API's own audiences.
   */
  async authenticateTokenFor(token: string, audiences: readonly string[]): Promise<AudienceBoundUser | undefined> {
    const key = createHash('sha256').update(token).update('\0').update(audiences.join('\0')).digest('base64');
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached ?? undefined;
    let answer: ReturnType<typeof parseTokenReviewStatus>;
    try {
      answer = parseTokenReviewStatus(await this.options.sender.send(tokenReviewBody(token, audiences, this.options.version)));
    } catch (err) {
      this.options.log(`Failed to make webhook authenticator request: ${(err as Error).message}`);
      return undefined;
    }
    if (answer.user === undefined && answer.error !== '') this.options.log(`webhook token authenticator: ${answer.error}`);
    const granted = answer.audiences.length > 0 ? answer.audiences : this.options.apiAudiences;
    const meantFor = audiences.filter((a) => granted.includes(a));
    const result = answer.user !== undefined && (audiences.length === 0 || meantFor.length > 0) ? { user: answer.user, audiences: meantFor } : undefined;
    if (this.options.cacheTtlMs > 0) this.cache.set(key, result ?? null, this.options.cacheTtlMs);
    return result;
  }
}
