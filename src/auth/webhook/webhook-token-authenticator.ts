/**
 * --authentication-token-webhook-config-file: a bearer token no other authenticator knows is sent
 * in a TokenReview to the webhook of that kubeconfig, which says whom it names. Answers, yes or
 * no, are kept for --authentication-token-webhook-cache-ttl (upstream's token cache, by the
 * token's hash); a webhook that cannot be reached (after upstream's retries) authenticates no
 * one and nothing is cached.
 */
import { createHash } from 'node:crypto';
import type { TokenAuthenticator } from '../bearer-token-authenticator.js';
import type { UserInfo } from '../user-info.js';
import { ExpiringCache } from './expiring-cache.js';
import { parseTokenReviewStatus, tokenReviewBody } from './token-review.js';
import type { ReviewSender } from './webhook-authorizer.js';

/** Upstream's token cache size, in answers. */
const CACHE_ENTRIES = 4096;

export interface WebhookTokenAuthenticatorOptions {
  readonly sender: ReviewSender;
  /** v1 or v1beta1. */
  readonly version: string;
  readonly cacheTtlMs: number;
  /** Where failures and refusals are reported. */
  readonly log: (message: string) => void;
  readonly now?: () => number;
}

export class WebhookTokenAuthenticator implements TokenAuthenticator {
  /** By the token's SHA-256: the cache holds no token in the clear. */
  private readonly cache: ExpiringCache<UserInfo | null>;

  constructor(private readonly options: WebhookTokenAuthenticatorOptions) {
    this.cache = new ExpiringCache(CACHE_ENTRIES, options.now);
  }

  async authenticateToken(token: string): Promise<UserInfo | undefined> {
    const key = createHash('sha256').update(token).digest('base64');
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached ?? undefined;
    let answer: ReturnType<typeof parseTokenReviewStatus>;
    try {
      answer = parseTokenReviewStatus(await this.options.sender.send(tokenReviewBody(token, this.options.version)));
    } catch (err) {
      this.options.log(`Failed to make webhook authenticator request: ${(err as Error).message}`);
      return undefined;
    }
    if (answer.user === undefined && answer.error !== '') this.options.log(`webhook token authenticator: ${answer.error}`);
    if (this.options.cacheTtlMs > 0) this.cache.set(key, answer.user ?? null, this.options.cacheTtlMs);
    return answer.user;
  }
}
