/**
 * The server with --token-auth-file: bearer tokens from the file authenticate requests, an unknown
 * one is 401, and TokenReview tells a component whom a token names.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { MAIN, startServer, type TestServer } from './harness.js';

const TOKEN_REVIEWS = '/apis/authentication.k8s.io/v1/tokenreviews';

describe('--token-auth-file', () => {
  let server: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'capstan-token-file-'));
  const tokens = join(dir, 'tokens.csv');

  before(async () => {
    writeFileSync(tokens, 'secret-1,alice,uid-1,"dev,ops"\nsecret-2,bob,uid-2\n');
    server = await startServer(['--token-auth-file', tokens]);
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('authenticates a request by a token from the file', async () => {
    const review = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };
    const res = await server.request('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      method: 'POST', body: review, anonymous: true, headers: { Authorization: 'Bearer secret-1' },
    });
    assert.equal(res.status, 201);
    assert.deepEqual(res.json().status.userInfo, { username: 'alice', uid: 'uid-1', groups: ['dev', 'ops', 'system:authenticated'] });
  });

  it('refuses a token the file does not hold with 401', async () => {
    const res = await server.request('/api/v1/namespaces', { anonymous: true, headers: { Authorization: 'Bearer secret-3' } });
    assert.equal(res.status, 401);
    assert.equal(res.json().reason, 'Unauthorized');
  });

  it('answers TokenReview for a known and an unknown token', async () => {
    const review = (token: string) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
    const known = await server.request(TOKEN_REVIEWS, { method: 'POST', body: review('secret-2') });
    assert.equal(known.status, 201);
    // As upstream's, the review names the API audiences a token without audiences of its own is good for.
    assert.deepEqual(known.json().status, { authenticated: true, user: { username: 'bob', uid: 'uid-2', groups: ['system:authenticated'] }, audiences: ['https://kubernetes.default.svc.cluster.local'] });
    assert.equal(known.json().spec.token, 'secret-2', 'the review comes back with its spec');
    const unknown = await server.request(TOKEN_REVIEWS, { method: 'POST', body: review('nope') });
    assert.equal(unknown.status, 201);
    assert.deepEqual(unknown.json().status, { user: {}, error: 'invalid bearer token' });
    const empty = await server.request(TOKEN_REVIEWS, { method: 'POST', body: review('') });
    assert.equal(empty.status, 400);
    assert.equal(empty.json().message, 'token is required for TokenReview in authentication');
  });

  it('refuses to start on a file upstream refuses, with one line naming it', () => {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'secret-1,alice\n');
    const run = spawnSync(process.execPath, [MAIN, '--data-dir', join(dir, 'data'), '--secure-port', '0', '--token-auth-file', bad], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 1);
    assert.match(run.stderr, new RegExp(`capstan: failed to start: token file '${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}' must have at least 3 columns`));
  });
});
