/**
 * The sender both webhooks (authorization and token authentication) POST their reviews with: the
 * server and credentials of a kubeconfig read at startup, and upstream's retries (five tries, the
 * first wait 500 ms).
 */
import { loadKubeconfig } from '../../client/kubeconfig.js';
import { WebhookClient } from '../../client/webhook-client.js';
import type { ReviewSender } from './webhook-authorizer.js';

/** Upstream's first wait before trying a failed review again. */
const INITIAL_BACKOFF_MS = 500;

export function reviewSenderFor(configFile: string): ReviewSender {
  const client = new WebhookClient(loadKubeconfig(configFile));
  // Reviews run for requests, which cannot be cancelled from here: waits between tries always run out.
  const never = new AbortController().signal;
  return { send: (body) => client.postWithRetries(body, INITIAL_BACKOFF_MS, never) };
}
