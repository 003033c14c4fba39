/**
 * --enable-bootstrap-token-auth against the real server: a token `<id>.<secret>` whose Secret in
 * kube-system fits authenticates as system:bootstrap:<id> with its extra groups; expired, unusable,
 * mistyped or mismatched ones are refused (401), and without the flag none is accepted.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness.js';

const SECRETS = '/api/v1/namespaces/kube-system/secrets';

function bootstrapSecret(id: string, secret: string, extra: Record<string, string> = {}, type = 'bootstrap.kubernetes.io/token') {
  return {
    metadata: { name: `bootstrap-token-${id}` },
    type,
    stringData: { 'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true', ...extra },
  };
}

describe('--enable-bootstrap-token-auth', () => {
  let server: TestServer;
  let without: TestServer;
  const whoAmI = (s: TestServer, token: string) =>
    s.request('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      method: 'POST', anonymous: true, headers: { Authorization: `Bearer ${token}` }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
  const create = async (s: TestServer, body: unknown) => assert.equal((await s.request(SECRETS, { method: 'POST', body })).status, 201);

  before(async () => {
    [server, without] = await Promise.all([startServer(['--enable-bootstrap-token-auth']), startServer()]);
    await create(server, bootstrapSecret('abcdef', '0123456789abcdef', { 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token' }));
    await create(server, bootstrapSecret('expire', '0123456789abcdef', { expiration: '2020-01-01T00:00:00Z' }));
    await create(server, bootstrapSecret('nouse1', '0123456789abcdef', { 'usage-bootstrap-authentication': 'false' }));
    await create(server, bootstrapSecret('opaque', '0123456789abcdef', {}, 'Opaque'));
    await create(server, bootstrapSecret('spelt1', '0123456789abcdef', {}, 'bootstrap.cluster.io/token'));
    await create(server, bootstrapSecret('badgrp', '0123456789abcdef', { 'auth-extra-groups': 'system:masters' }));
    await create(without, bootstrapSecret('abcdef', '0123456789abcdef'));
  });
  after(async () => Promise.all([server?.stop(), without?.stop()]));

  it('authenticates a fitting token as system:bootstrap:<id> in system:bootstrappers and its extra groups', async () => {
    const res = await whoAmI(server, 'abcdef.0123456789abcdef');
    assert.equal(res.status, 201, res.body);
    assert.deepEqual(res.json().status.userInfo, {
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'],
    });
  });

  it('takes the type in the spec\'s spelling too', async () => {
    assert.equal((await whoAmI(server, 'spelt1.0123456789abcdef')).json().status.userInfo.username, 'system:bootstrap:spelt1');
  });

  it('refuses a wrong secret, an expired or unusable token, the wrong Secret type and groups outside system:bootstrappers', async () => {
    for (const token of ['abcdef.0123456789abcdeX', 'abcdef.fedcba9876543210', 'expire.0123456789abcdef', 'nouse1.0123456789abcdef', 'opaque.0123456789abcdef', 'badgrp.0123456789abcdef', 'nosuch.0123456789abcdef']) {
      assert.equal((await whoAmI(server, token)).status, 401, token);
    }
  });

  it('accepts none without the flag', async () => {
    assert.equal((await whoAmI(without, 'abcdef.0123456789abcdef')).status, 401);
  });
});
