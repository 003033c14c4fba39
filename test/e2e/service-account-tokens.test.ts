/**
 * Service account tokens against the real server: `kubectl create token` gets a TokenRequest's
 * token, which then authenticates as the service account (and stops once the account is deleted);
 * TokenRequest's checks in upstream's words; legacy tokens in token Secrets; the issuer discovery
 * documents; the flags.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN, createNamespace, startServer, type TestServer } from './harness.js';

const NS = 'tokens';
const tokenPath = (account: string) => `/api/v1/namespaces/${NS}/serviceaccounts/${account}/token`;
const tokenRequest = (spec: Record<string, unknown>) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec });

describe('service account tokens', () => {
  let server: TestServer;
  const withToken = (token: string, path: string) => server.request(path, { anonymous: true, headers: { Authorization: `Bearer ${token}` } });
  const whoAmI = async (token: string) => {
    const res = await server.request('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      method: 'POST', anonymous: true, headers: { Authorization: `Bearer ${token}` }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    return { status: res.status, user: res.status === 201 ? res.json().status.userInfo : undefined };
  };
  const create = (path: string, body: unknown) => server.request(path, { method: 'POST', body });

  before(async () => {
    server = await startServer(['--api-audiences', 'api,other']);
    await createNamespace(server, NS);
    assert.equal((await create(`/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'robot' } })).status, 201);
  });
  after(async () => server?.stop());

  it('kubectl create token issues a token that authenticates as the service account', async () => {
    const run = server.kubectl(['create', 'token', 'robot', '-n', NS]);
    assert.equal(run.code, 0, run.stderr);
    const { status, user } = await whoAmI(run.stdout.trim());
    assert.equal(status, 201);
    assert.equal(user.username, `system:serviceaccount:${NS}:robot`);
    assert.deepEqual(user.groups, ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated']);
  });

  it('answers 201 with the request, its defaults and the token; audiences default to --api-audiences', async () => {
    const res = await create(tokenPath('robot'), tokenRequest({}));
    assert.equal(res.status, 201, res.body);
    const answer = res.json();
    assert.deepEqual(answer.spec, { audiences: ['api', 'other'], expirationSeconds: 3600 });
    assert.deepEqual(answer.metadata, { creationTimestamp: null });
    const expires = Date.parse(answer.status.expirationTimestamp);
    assert.ok(Math.abs(expires - (Date.now() + 3_600_000)) < 10_000, answer.status.expirationTimestamp);
    const claims = JSON.parse(Buffer.from(answer.status.token.split('.')[1], 'base64url').toString());
    assert.deepEqual(claims.aud, ['api', 'other']);
    assert.equal(claims.iss, 'https://kubernetes.default.svc.cluster.local');
  });

  it('reviews a token for the audiences a TokenReview names, and for the API\'s by default', async () => {
    const review = (token: string, audiences?: string[]) =>
      server.request('/apis/authentication.k8s.io/v1/tokenreviews', { method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } } });
    const vault = (await create(tokenPath('robot'), tokenRequest({ audiences: ['vault', 'api'] }))).json().status.token;
    const forVault = (await review(vault, ['vault', 'elsewhere'])).json().status;
    assert.equal(forVault.authenticated, true);
    assert.deepEqual(forVault.audiences, ['vault']);
    assert.equal(forVault.user.username, `system:serviceaccount:${NS}:robot`);
    assert.deepEqual((await review(vault)).json().status.audiences, ['api']);
    assert.deepEqual((await review(vault, ['elsewhere'])).json().status, { user: {}, error: 'invalid bearer token' });
  });

  it('refuses a token for an audience the server does not accept, and garbage, with 401', async () => {
    const foreign = (await create(tokenPath('robot'), tokenRequest({ audiences: ['vault'] }))).json().status.token;
    assert.equal((await withToken(foreign, '/api/v1/namespaces')).status, 401);
    assert.equal((await withToken('eyJhbGciOiJFUzI1NiJ9.e30.AAAA', '/api/v1/namespaces')).status, 401);
  });

  it('checks the duration and the bound object as upstream does', async () => {
    const short = await create(tokenPath('robot'), tokenRequest({ expirationSeconds: 599 }));
    assert.equal(short.status, 422);
    assert.equal(short.json().message, 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
    const missing = await create(tokenPath('nobody'), tokenRequest({}));
    assert.equal(missing.status, 404);
    assert.equal(missing.json().message, 'serviceaccounts "nobody" not found');
    const pod = await create(`/api/v1/namespaces/${NS}/pods`, { metadata: { name: 'p' }, spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'nginx' }] } });
    assert.equal(pod.status, 201, pod.body);
    const uid = pod.json().metadata.uid;
    const bound = await create(tokenPath('robot'), tokenRequest({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid } }));
    assert.equal(bound.status, 201, bound.body);
    const { user } = await whoAmI(bound.json().status.token);
    assert.deepEqual(user.extra['authentication.kubernetes.io/pod-uid'], [uid]);
    const stale = await create(tokenPath('robot'), tokenRequest({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'old' } }));
    assert.equal(stale.status, 409);
    assert.equal(stale.json().message, 'Operation cannot be fulfilled on Pod "p": the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated');
    const otherAccount = await create(tokenPath('default'), tokenRequest({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p' } }));
    assert.equal(otherAccount.status, 400);
    assert.equal(otherAccount.json().message, 'cannot bind token for serviceaccount "default" to pod running with different serviceaccount name.');
    const deployment = await create(tokenPath('robot'), tokenRequest({ boundObjectRef: { kind: 'Deployment', apiVersion: 'apps/v1', name: 'd' } }));
    assert.equal(deployment.status, 400);
    assert.equal(deployment.json().message, 'cannot bind token to object of type apps/v1, Kind=Deployment');
  });

  it('stops authenticating the tokens of a deleted service account', async () => {
    assert.equal((await create(`/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'temp' } })).status, 201);
    const token = (await create(tokenPath('temp'), tokenRequest({}))).json().status.token;
    assert.equal((await whoAmI(token)).status, 201);
    assert.equal((await server.request(`/api/v1/namespaces/${NS}/serviceaccounts/temp`, { method: 'DELETE' })).status, 200);
    let status = 0;
    for (let i = 0; i < 250 && status !== 401; i++) {
      status = (await withToken(token, '/api/v1/namespaces')).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(status, 401);
  });

  it('fills a token Secret with a legacy token that authenticates until the account is deleted, with its Secret', async () => {
    assert.equal((await create(`/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'builder' } })).status, 201);
    const secret = { metadata: { name: 'builder-token', annotations: { 'kubernetes.io/service-account.name': 'builder' } }, type: 'kubernetes.io/service-account-token' };
    assert.equal((await create(`/api/v1/namespaces/${NS}/secrets`, secret)).status, 201);
    let filled: any;
    for (let i = 0; i < 250 && !filled?.data?.token; i++) {
      filled = (await server.request(`/api/v1/namespaces/${NS}/secrets/builder-token`)).json();
      if (!filled?.data?.token) await new Promise((r) => setTimeout(r, 20));
    }
    const decoded = (key: string) => Buffer.from(filled.data[key], 'base64').toString();
    assert.equal(decoded('namespace'), NS);
    assert.match(decoded('ca.crt'), /^-----BEGIN CERTIFICATE-----/);
    const account = (await server.request(`/api/v1/namespaces/${NS}/serviceaccounts/builder`)).json();
    assert.equal(filled.metadata.annotations['kubernetes.io/service-account.uid'], account.metadata.uid);
    const token = decoded('token');
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    assert.deepEqual(claims, {
      iss: 'kubernetes/serviceaccount',
      'kubernetes.io/serviceaccount/namespace': NS,
      'kubernetes.io/serviceaccount/secret.name': 'builder-token',
      'kubernetes.io/serviceaccount/service-account.name': 'builder',
      'kubernetes.io/serviceaccount/service-account.uid': account.metadata.uid,
      sub: `system:serviceaccount:${NS}:builder`,
    });
    assert.equal((await whoAmI(token)).user.username, `system:serviceaccount:${NS}:builder`);
    assert.equal((await server.request(`/api/v1/namespaces/${NS}/serviceaccounts/builder`, { method: 'DELETE' })).status, 200);
    let gone = 0;
    for (let i = 0; i < 250 && gone !== 404; i++) {
      gone = (await server.request(`/api/v1/namespaces/${NS}/secrets/builder-token`)).status;
      if (gone !== 404) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(gone, 404, 'the Secret goes with its account');
    assert.equal((await withToken(token, '/api/v1/namespaces')).status, 401);
  });

  it('deletes a token Secret naming an account that does not exist', async () => {
    const secret = { metadata: { name: 'orphan-token', annotations: { 'kubernetes.io/service-account.name': 'nobody' } }, type: 'kubernetes.io/service-account-token' };
    assert.equal((await create(`/api/v1/namespaces/${NS}/secrets`, secret)).status, 201);
    let status = 0;
    for (let i = 0; i < 250 && status !== 404; i++) {
      status = (await server.request(`/api/v1/namespaces/${NS}/secrets/orphan-token`)).status;
      if (status !== 404) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(status, 404);
  });

  it('serves the issuer discovery documents, which verify the tokens', async () => {
    const config = await server.request('/.well-known/openid-configuration');
    assert.equal(config.status, 200);
    assert.equal(config.headers['content-type'], 'application/json');
    assert.equal(config.headers['cache-control'], 'public, max-age=3600');
    assert.deepEqual(config.json(), {
      issuer: 'https://kubernetes.default.svc.cluster.local',
      jwks_uri: `https://127.0.0.1:${server.port}/openid/v1/jwks`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
    });
    const keys = await server.request('/openid/v1/jwks');
    assert.equal(keys.headers['content-type'], 'application/jwk-set+json');
    const token = (await create(tokenPath('robot'), tokenRequest({}))).json().status.token;
    const kid = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).kid;
    assert.deepEqual(keys.json().keys.map((k: { kid: string }) => k.kid), [kid]);
  });
});

describe('service account token flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-sa-flags-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const start = (...args: string[]) => spawnSync(process.execPath, [MAIN, '--data-dir', join(dir, 'data'), '--secure-port', '0', ...args], { encoding: 'utf8', timeout: 30_000 });

  it('refuses bad values in upstream\'s words', () => {
    const run = start('--service-account-max-token-expiration', '30m', '--service-account-issuer', 'a', '--service-account-issuer', 'a', '--service-account-jwks-uri', 'http://x/jwks', '--service-account-key-file', join(dir, 'none.pem'));
    assert.equal(run.status, 1);
    for (const message of [
      'service-account-issuer "a" is already specified',
      'service-account-jwks-uri requires https scheme, parsed as: http://x/jwks',
      `--service-account-key-file ${join(dir, 'none.pem')}: no such file`,
      'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds',
    ]) assert.ok(run.stderr.includes(message), run.stderr);
  });
});
