/**
 * --authorization-mode=Webhook with the real binary, asking a real HTTPS server this test starts
 * (its own CA, a bearer token in the kubeconfig): the SubjectAccessReview it is sent, allow, deny and
 * no opinion, the cache, retries and the 500 when the webhook keeps failing, v1 reviews, and a
 * version upstream cannot send.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN, createNamespace, startServer, type TestServer } from './harness.js';
import { startReviewWebhook } from './webhook-server.js';

/** alice may use namespace team, mallory is denied, flaky's reviews fail, anyone else gets no opinion. */
function answer(review: Record<string, any>): { code: number; status?: object } {
  const spec = review.spec;
  if (spec.user === 'flaky') return { code: 500 };
  if (spec.user === 'mallory') return { code: 200, status: { allowed: false, denied: true, reason: 'mallory is banned' } };
  if (spec.user === 'alice' && spec.resourceAttributes?.namespace === 'team') return { code: 200, status: { allowed: true } };
  return { code: 200, status: { allowed: false, reason: 'not mine' } };
}

function startReviewer() {
  return startReviewWebhook('authz', { path: '/authorize', token: 'authz-token' }, 'SubjectAccessReview', answer);
}

describe('--authorization-mode=Webhook', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-authz-webhook-'));
  const tokens = join(dir, 'tokens.csv');
  const config = join(dir, 'authz.kubeconfig');
  let reviewer: Awaited<ReturnType<typeof startReviewer>>;
  let server: TestServer;
  const as = (token: string) => ({ anonymous: true, headers: { Authorization: `Bearer ${token}` } });
  const reviewsOf = (user: string) => reviewer.received.filter((r) => r.body.spec.user === user);

  before(async () => {
    reviewer = await startReviewer();
    writeFileSync(config, reviewer.kubeconfig);
    writeFileSync(tokens, 'alice-token,alice,uid-alice,devs\nbob-token,bob,uid-bob\nmallory-token,mallory,uid-m\nflaky-token,flaky,uid-f\n');
    server = await startServer(['--authorization-mode', 'Webhook', '--authorization-webhook-config-file', config, '--token-auth-file', tokens]);
    await createNamespace(server, 'team');
  });
  after(async () => {
    await server?.stop();
    await reviewer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends a v1beta1 SubjectAccessReview with the bearer token, and allows what it allows', async () => {
    const res = await server.request('/api/v1/namespaces/team/configmaps', as('alice-token'));
    assert.equal(res.status, 200, res.body);
    const [review] = reviewsOf('alice');
    assert.equal(review!.authorization, 'Bearer authz-token');
    assert.deepEqual(review!.body, {
      kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1beta1', metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'team', verb: 'list', version: 'v1', resource: 'configmaps' }, user: 'alice', group: ['devs', 'system:authenticated'], uid: 'uid-alice' },
      status: { allowed: false },
    });
  });

  it('caches the answer: the same request is not sent again', async () => {
    assert.equal((await server.request('/api/v1/namespaces/team/configmaps', as('alice-token'))).status, 200);
    assert.equal(reviewsOf('alice').length, 1);
  });

  it('forbids with the webhook\'s reason when it denies or has no opinion', async () => {
    const denied = await server.request('/api/v1/namespaces/team/configmaps', as('mallory-token'));
    assert.equal(denied.status, 403);
    assert.equal(denied.json().message, 'configmaps is forbidden: User "mallory" cannot list resource "configmaps" in API group "" in the namespace "team": mallory is banned');
    const noOpinion = await server.request('/version', as('bob-token'));
    assert.equal(noOpinion.status, 403);
    assert.equal(noOpinion.json().message, 'forbidden: User "bob" cannot get path "/version": not mine');
    assert.deepEqual(reviewsOf('bob')[0]!.body.spec.nonResourceAttributes, { path: '/version', verb: 'get' });
  });

  it('answers a SubjectAccessReview with the webhook\'s decision', async () => {
    const res = await server.request('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      method: 'POST',
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'mallory', resourceAttributes: { namespace: 'team', verb: 'get', resource: 'pods' } } },
    });
    assert.equal(res.status, 201, res.body);
    assert.deepEqual(res.json().status, { allowed: false, denied: true, reason: 'mallory is banned' });
  });

  it('tries a failing webhook five times, then fails the request with upstream\'s plain-text 500', async () => {
    const res = await server.request('/api/v1/namespaces/team/configmaps', as('flaky-token'));
    assert.equal(res.status, 500);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    assert.equal(res.body, 'Internal Server Error: &#34;/api/v1/namespaces/team/configmaps&#34;: the server responded with the status code 500 but did not return more information\n');
    assert.equal(reviewsOf('flaky').length, 5);
  });

  it('sends v1 reviews with --authorization-webhook-version=v1', async () => {
    const v1 = await startServer(['--authorization-mode', 'Webhook', '--authorization-webhook-config-file', config, '--authorization-webhook-version', 'v1', '--token-auth-file', tokens]);
    try {
      const before = reviewer.received.length;
      assert.equal((await v1.request('/api/v1/namespaces/team/pods', as('alice-token'))).status, 200);
      const review = reviewer.received[before]!.body;
      assert.equal(review.apiVersion, 'authorization.k8s.io/v1');
      assert.deepEqual(review.spec.groups, ['devs', 'system:authenticated']);
    } finally {
      await v1.stop();
    }
  });

  it('refuses to start with a review version upstream cannot send', () => {
    const run = spawnSync(process.execPath, [MAIN, '--data-dir', join(dir, 'data'), '--secure-port', '0', '--authorization-mode', 'Webhook', '--authorization-webhook-config-file', config, '--authorization-webhook-version', 'v2'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 1);
    assert.equal(run.stderr, 'capstan: failed to start: unsupported webhook authorizer version "v2", supported versions are "v1", "v1beta1"\n');
  });
});
