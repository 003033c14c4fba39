/**
 * The Webhook mode from its options: the kubeconfig read at startup, the review version checked
 * in upstream's words, and reviews sent with upstream's retries (review-sender.ts).
 */
import type { AuthorizerLog } from '../authorizer.js';
import { REVIEW_VERSIONS } from './subject-access-review.js';
import { reviewSenderFor } from './review-sender.js';
import { WebhookAuthorizer } from './webhook-authorizer.js';

/** The --authorization-webhook-* options. */
export interface WebhookAuthorizerSettings {
  /** --authorization-webhook-config-file. */
  readonly configFile?: string;
  /** --authorization-webhook-version: v1beta1 (the default) or v1. */
  readonly version: string;
  /** --authorization-webhook-cache-authorized-ttl. */
  readonly cacheAuthorizedTtlMs: number;
  /** --authorization-webhook-cache-unauthorized-ttl. */
  readonly cacheUnauthorizedTtlMs: number;
}

/** Throws, in upstream's words, without a config file or for a version it cannot send. */
export function webhookAuthorizer(settings: WebhookAuthorizerSettings | undefined, log: AuthorizerLog | undefined): WebhookAuthorizer {
  if (settings?.configFile === undefined || settings.configFile === '') throw new Error("Webhook's configuration file not passed");
  if (!REVIEW_VERSIONS.includes(settings.version)) {
    throw new Error(`unsupported webhook authorizer version "${settings.version}", supported versions are "v1", "v1beta1"`);
  }
  return new WebhookAuthorizer({
    sender: reviewSenderFor(settings.configFile),
    version: settings.version,
    authorizedTtlMs: settings.cacheAuthorizedTtlMs,
    unauthorizedTtlMs: settings.cacheUnauthorizedTtlMs,
    logError: (message) => log?.error(message),
  });
}
