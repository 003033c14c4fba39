/** The authorization webhook's decisions, cache and failures, against a scripted sender and clock. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WebhookAuthorizer } from '../../../src/auth/webhook/webhook-authorizer.js';
import { ExpiringCache } from '../../../src/auth/webhook/expiring-cache.js';
import { UnionAuthorizer, AlwaysAllowAuthorizer, type AuthorizationAttributes } from '../../../src/auth/authorizer.js';

const attrs = (over: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user: { name: 'jane', groups: ['system:authenticated'] },
  verb: 'list', isResourceRequest: true, path: '/api/v1/namespaces/a/pods', namespace: 'a',
  apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: '',
  ...over,
});

/** A webhook answering `status` (or failing), counting its calls, on a clock moved by hand. */
function scripted(answer: (n: number) => object | Error) {
  let calls = 0;
  let now = 0;
  const errors: string[] = [];
  const authorizer = new WebhookAuthorizer({
    sender: {
      send: async () => {
        const a = answer(++calls);
        if (a instanceof Error) throw a;
        return JSON.stringify({ apiVersion: 'authorization.k8s.io/v1beta1', kind: 'SubjectAccessReview', status: a });
      },
    },
    version: 'v1beta1', authorizedTtlMs: 300_000, unauthorizedTtlMs: 30_000,
    logError: (m) => errors.push(m), now: () => now,
  });
  return { authorizer, calls: () => calls, errors, advance: (ms: number) => (now += ms) };
}

describe('WebhookAuthorizer decisions', () => {
  const table: Array<{ name: string; status: object; expected: object }> = [
    { name: 'allowed allows', status: { allowed: true, reason: 'by policy' }, expected: { decision: 'allow', reason: 'by policy' } },
    { name: 'denied denies', status: { allowed: false, denied: true, reason: 'no' }, expected: { decision: 'deny', reason: 'no' } },
    { name: 'neither is no opinion', status: { allowed: false, reason: 'unknown' }, expected: { decision: 'no-opinion', reason: 'unknown' } },
    { name: 'both denies, with an error', status: { allowed: true, denied: true }, expected: { decision: 'deny', reason: '', error: 'webhook subject access review returned both allow and deny response' } },
  ];
  for (const { name, status, expected } of table) {
    it(name, async () => assert.deepEqual(await scripted(() => status).authorizer.authorize(attrs()), expected));
  }

  it('a failure is no opinion with the error, logged in upstream\'s words', async () => {
    const s = scripted(() => new Error('Post "https://x/": connection refused'));
    assert.deepEqual(await s.authorizer.authorize(attrs()), { decision: 'no-opinion', reason: '', error: 'Post "https://x/": connection refused' });
    assert.deepEqual(s.errors, ['Failed to make webhook authorizer request: Post "https://x/": connection refused']);
  });

  it('a deny stops the union; an error without decision reaches it', async () => {
    const denying = new UnionAuthorizer([scripted(() => ({ denied: true })).authorizer, new AlwaysAllowAuthorizer()]);
    assert.equal((await denying.authorize(attrs())).decision, 'deny');
    const failing = new UnionAuthorizer([scripted(() => new Error('down')).authorizer]);
    assert.deepEqual(await failing.authorize(attrs()), { decision: 'no-opinion', reason: '', error: 'down' });
    const rescued = new UnionAuthorizer([scripted(() => new Error('down')).authorizer, new AlwaysAllowAuthorizer()]);
    assert.deepEqual(await rescued.authorize(attrs()), { decision: 'allow', reason: '' });
  });

  it('lists no rules, saying why', () =>
    assert.deepEqual(scripted(() => ({})).authorizer.rulesFor(), { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' }));
});

describe('WebhookAuthorizer cache', () => {
  it('keeps allowed answers for the authorized TTL, others for the unauthorized TTL', async () => {
    const s = scripted((n) => ({ allowed: n === 1 }));
    await s.authorizer.authorize(attrs());
    s.advance(299_999);
    assert.equal((await s.authorizer.authorize(attrs())).decision, 'allow', 'cached');
    assert.equal(s.calls(), 1);
    s.advance(1);
    assert.equal((await s.authorizer.authorize(attrs())).decision, 'no-opinion', 'expired, asked again');
    s.advance(29_999);
    await s.authorizer.authorize(attrs());
    assert.equal(s.calls(), 2);
    s.advance(1);
    await s.authorizer.authorize(attrs());
    assert.equal(s.calls(), 3);
  });

  it('keys on the whole review: another user, verb or name is asked', async () => {
    const s = scripted(() => ({ allowed: true }));
    await s.authorizer.authorize(attrs());
    await s.authorizer.authorize(attrs({ verb: 'get' }));
    await s.authorizer.authorize(attrs({ user: { name: 'joe', groups: [] } }));
    await s.authorizer.authorize(attrs({ name: 'p' }));
    await s.authorizer.authorize(attrs());
    assert.equal(s.calls(), 4);
  });

  it('does not cache failures, nor requests with attributes of 10000 bytes or more', async () => {
    const failing = scripted((n) => (n === 1 ? new Error('down') : { allowed: true }));
    await failing.authorizer.authorize(attrs());
    assert.equal((await failing.authorizer.authorize(attrs())).decision, 'allow');
    const big = scripted(() => ({ allowed: true }));
    const long = attrs({ name: 'n'.repeat(10_000) });
    await big.authorizer.authorize(long);
    await big.authorizer.authorize(long);
    assert.equal(big.calls(), 2);
  });
});

describe('ExpiringCache', () => {
  it('evicts the least recently used entry when full', () => {
    const cache = new ExpiringCache<number>(2, () => 0);
    cache.set('a', 1, 10);
    cache.set('b', 2, 10);
    cache.get('a');
    cache.set('c', 3, 10);
    assert.deepEqual([cache.get('a'), cache.get('b'), cache.get('c'), cache.size], [1, undefined, 3, 2]);
  });
});
