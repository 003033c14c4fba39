/** The token webhook from its options (--authentication-token-webhook-*), checked in upstream's words. */
import { reviewSenderFor } from './review-sender.js';
import { TOKEN_REVIEW_VERSIONS } from './token-review.js';
import { WebhookTokenAuthenticator } from './webhook-token-authenticator.js';

export interface TokenWebhookSettings {
  /** --authentication-token-webhook-config-file; none: no token webhook. */
  readonly configFile?: string;
  /** --authentication-token-webhook-version: v1beta1 (the default) or v1. */
  readonly version: string;
  /** --authentication-token-webhook-cache-ttl. */
  readonly cacheTtlMs: number;
}

/** Undefined without a config file; throws for a version upstream cannot send. */
export function webhookTokenAuthenticator(settings: TokenWebhookSettings, apiAudiences: readonly string[], log: (message: string) => void): WebhookTokenAuthenticator | undefined {
  if (settings.configFile === undefined || settings.configFile === '') return undefined;
  if (!TOKEN_REVIEW_VERSIONS.includes(settings.version)) {
    throw new Error(`unsupported authentication webhook version "${settings.version}", supported versions are "v1", "v1beta1"`);
  }
  return new WebhookTokenAuthenticator({ sender: reviewSenderFor(settings.configFile), apiAudiences, version: settings.version, cacheTtlMs: settings.cacheTtlMs, log });
}
