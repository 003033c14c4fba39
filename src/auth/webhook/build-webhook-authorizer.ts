/**
 * The Webhook mode from its options: the kubeconfig read at startup, the review version checked
 * in upstream's words, and reviews sent with upstream's retries (500 ms first wait).
 */
import { loadKubeconfig } from '../../client/kubeconfig.js';
import { WebhookClient } from '../../client/webhook-client.js';
import type { AuthorizerLog } from '../authorizer.js';
import { REVIEW_VERSIONS } from './subject-access-review.js';
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

/** Upstream's first wait before trying a failed review again. */
const INITIAL_BACKOFF_MS = 500;

/** Throws, in upstream's words, without a config file or for a version it cannot send. */
export function webhookAuthorizer(settings: WebhookAuthorizerSettings | undefined, log: AuthorizerLog | undefined): WebhookAuthorizer {
  if (settings?.configFile === undefined || settings.configFile === '') throw new Error("Webhook's configuration file not passed");
  if (!REVIEW_VERSIONS.includes(settings.version)) {
    throw new Error(`unsupported webhook authorizer version "${settings.version}", supported versions are "v1", "v1beta1"`);
  }
  const client = new WebhookClient(loadKubeconfig(settings.configFile));
  // Reviews run for requests, which cannot be cancelled from here: waits between tries always run out.
  const never = new AbortController().signal;
  return new WebhookAuthorizer({
    sender: { send: (body) => client.postWithRetries(body, INITIAL_BACKOFF_MS, never) },
    version: settings.version,
    authorizedTtlMs: settings.cacheAuthorizedTtlMs,
    unauthorizedTtlMs: settings.cacheUnauthorizedTtlMs,
    logError: (message) => log?.error(message),
  });
}
