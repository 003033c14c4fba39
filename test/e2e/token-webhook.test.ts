/**
 * --authentication-token-webhook-config-file with the real binary, asking a real HTTPS server this
 * test starts: the TokenReview it is sent, the user it names, a token it refuses, the cache, a
 * webhook that fails, v1 reviews, and the flags' errors.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN, startServer, type TestServer } from './harness.js';
import { startReviewWebhook } from './webhook-server.js';

/** good-token names alice, refused-token is refused with a reason, flaky-token's reviews fail. */
function answer(review: Record<string, any>): { code: number; status?: object } {
  const token = review.spec.token;
  if (token === 'flaky-token') return { code: 500 };
  if (token === 'good-token') return { code: 200, status: { authenticated: true, user: { username: 'alice', uid: 'uid-a', groups: ['devs'], extra: { team: ['blue'] } } } };
  return { code: 200, status: { authenticated: false, error: 'no such token' } };
}

function startReviewer() {
  return startReviewWebhook('authn', { path: '/authenticate', token: 'authn-token' }, 'TokenReview', answer);
}

describe('--authentication-token-webhook-config-file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-token-webhook-'));
  const config = join(dir, 'authn.kubeconfig');
  let reviewer: Awaited<ReturnType<typeof startReviewer>>;
  let server: TestServer;
  const whoAmI = (token: string) =>
    server.request('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      method: 'POST', anonymous: true, headers: { Authorization: `Bearer ${token}` }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
  const reviewsOf = (token: string) => reviewer.received.filter((r) => r.body.spec.token === token);

  before(async () => {
    reviewer = await startReviewer();
    writeFileSync(config, reviewer.kubeconfig);
    server = await startServer(['--authentication-token-webhook-config-file', config]);
  });
  after(async () => {
    await server?.stop();
    await reviewer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends a v1beta1 TokenReview with the kubeconfig\'s credentials and authenticates the user it names', async () => {
    const res = await whoAmI('good-token');
    assert.equal(res.status, 201, res.body);
    assert.deepEqual(res.json().status.userInfo, { username: 'alice', uid: 'uid-a', groups: ['devs', 'system:authenticated'], extra: { team: ['blue'] } });
    const [review] = reviewsOf('good-token');
    assert.equal(review?.authorization, 'Bearer authn-token');
    // As upstream's, a request's token is asked about the API's audiences (--api-audiences, by default the issuer).
    assert.equal(review?.text, '{"kind":"TokenReview","apiVersion":"authentication.k8s.io/v1beta1","metadata":{"creationTimestamp":null},"spec":{"token":"good-token","audiences":["https://kubernetes.default.svc.cluster.local"]},"status":{"user":{}}}');
  });

  it('keeps the answer: the same token is not sent again', async () => {
    const before = reviewsOf('good-token').length;
    assert.equal((await whoAmI('good-token')).status, 201);
    assert.equal(reviewsOf('good-token').length, before);
  });

  it('refuses a token the webhook does not authenticate, or cannot review, with 401', async () => {
    assert.equal((await server.request('/api/v1/namespaces', { anonymous: true, headers: { Authorization: 'Bearer refused-token' } })).status, 401);
    const flaky = await server.request('/api/v1/namespaces', { anonymous: true, headers: { Authorization: 'Bearer flaky-token' } });
    assert.equal(flaky.status, 401);
    assert.equal(reviewsOf('flaky-token').length, 5, 'tried five times, as upstream');
    assert.match(server.output(), /Failed to make webhook authenticator request: the server responded with the status code 500/);
  });

  it('answers the TokenReview API with the webhook\'s user, asking it about the review\'s audiences', async () => {
    const review = (audiences?: string[]) => server.request('/apis/authentication.k8s.io/v1/tokenreviews', {
      method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'good-token', ...(audiences ? { audiences } : {}) } },
    });
    const res = await review();
    assert.equal(res.status, 201, res.body);
    assert.equal(res.json().status.user.username, 'alice');
    assert.deepEqual(res.json().status.audiences, ['https://kubernetes.default.svc.cluster.local']);
    // The webhook names no audiences: upstream takes that for the API's own, so another audience is not granted.
    const vault = await review(['vault']);
    assert.deepEqual(vault.json().status, { user: {}, error: 'invalid bearer token' });
    assert.deepEqual(reviewsOf('good-token').at(-1)?.body.spec.audiences, ['vault']);
  });
});

describe('--authentication-token-webhook-* flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-token-webhook-flags-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('sends v1 reviews with --authentication-token-webhook-version v1', async () => {
    const reviewer = await startReviewer();
    const config = join(dir, 'v1.kubeconfig');
    writeFileSync(config, reviewer.kubeconfig);
    const server = await startServer(['--authentication-token-webhook-config-file', config, '--authentication-token-webhook-version', 'v1', '--authentication-token-webhook-cache-ttl', '0s']);
    try {
      for (let i = 0; i < 2; i++) {
        const res = await server.request('/api/v1/namespaces', { anonymous: true, headers: { Authorization: 'Bearer good-token' } });
        assert.equal(res.status, 200);
      }
      assert.deepEqual(reviewer.received.map((r) => r.body.apiVersion), ['authentication.k8s.io/v1', 'authentication.k8s.io/v1'], 'no cache with a TTL of 0');
    } finally {
      await server.stop();
      await reviewer.close();
    }
  });

  it('refuses a version upstream cannot send and a missing file', () => {
    const config = join(dir, 'any.kubeconfig');
    writeFileSync(config, 'apiVersion: v1\nkind: Config\nclusters:\n- name: a\n  cluster:\n    server: https://127.0.0.1:1\ncontexts:\n- name: a\n  context:\n    cluster: a\ncurrent-context: a\n');
    const start = (...args: string[]) => spawnSync(process.execPath, [MAIN, '--data-dir', join(dir, 'data'), '--secure-port', '0', ...args], { encoding: 'utf8', timeout: 30_000 });
    const version = start('--authentication-token-webhook-config-file', config, '--authentication-token-webhook-version', 'v2');
    assert.equal(version.status, 1);
    assert.match(version.stderr, /unsupported authentication webhook version "v2", supported versions are "v1", "v1beta1"/);
    const missing = start('--authentication-token-webhook-config-file', join(dir, 'none'));
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /--authentication-token-webhook-config-file .*none: no such file/);
  });
});
