/** The SubjectAccessReview bodies the authorization webhook sends, and how answers are read. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseReviewStatus, reviewBody, reviewSpec } from '../../../src/auth/webhook/subject-access-review.js';
import type { AuthorizationAttributes } from '../../../src/auth/authorizer.js';

const attrs = (over: Partial<AuthorizationAttributes>): AuthorizationAttributes => ({
  user: { name: 'jane', uid: 'u1', groups: ['group1', 'group2'], extra: { z: ['1'], a: ['2'] } },
  verb: 'get',
  isResourceRequest: true,
  path: '/apis/apps/v1/namespaces/kittens/deployments/d',
  namespace: 'kittens',
  apiGroup: 'apps',
  apiVersion: 'v1',
  resource: 'deployments',
  subresource: '',
  name: 'd',
  ...over,
});

describe('review bodies', () => {
  it('v1: resource attributes, user, groups, extra (sorted), uid, in Go\'s order, empty fields left out', () => {
    assert.equal(
      reviewBody(reviewSpec(attrs({})), 'v1'),
      '{"kind":"SubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},' +
        '"spec":{"resourceAttributes":{"namespace":"kittens","verb":"get","group":"apps","version":"v1","resource":"deployments","name":"d"},' +
        '"user":"jane","groups":["group1","group2"],"extra":{"a":["2"],"z":["1"]},"uid":"u1"},"status":{"allowed":false}}',
    );
  });

  it('v1beta1 names the groups "group"', () => {
    const body = JSON.parse(reviewBody(reviewSpec(attrs({ isResourceRequest: false, path: '/healthz', user: { name: 'jane', groups: ['g'] } })), 'v1beta1'));
    assert.equal(body.apiVersion, 'authorization.k8s.io/v1beta1');
    assert.deepEqual(body.spec, { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'jane', group: ['g'] });
  });

  it('leaves out an empty extra, as omitempty does', () =>
    assert.deepEqual(reviewSpec(attrs({ user: { name: 'jane', groups: [], extra: {} } })), { resourceAttributes: { namespace: 'kittens', verb: 'get', group: 'apps', version: 'v1', resource: 'deployments', name: 'd' }, user: 'jane' }));

  it('escapes HTML characters as Go does', () => assert.match(reviewBody(reviewSpec(attrs({ name: '<a&b>' })), 'v1'), /"name":"\\u003ca\\u0026b\\u003e"/));
});

describe('review answers', () => {
  it('reads the status, missing fields as false or empty', () => {
    assert.deepEqual(parseReviewStatus('{"status":{"allowed":true,"reason":"ok"}}'), { allowed: true, denied: false, reason: 'ok', evaluationError: '' });
    assert.deepEqual(parseReviewStatus('{}'), { allowed: false, denied: false, reason: '', evaluationError: '' });
  });
  it('refuses what is not a review', () => {
    assert.throws(() => parseReviewStatus('nope'), /decoding the webhook's SubjectAccessReview/);
    assert.throws(() => parseReviewStatus('{"status":{"allowed":"yes"}}'), /status\.allowed is not a boolean/);
  });
});
