/**
 * Impersonation through the real binary with kubectl's --as, --as-group and --as-uid: the request
 * runs as the impersonated user (auth whoami reports it, authorization judges it), and a user the
 * authorizer does not let impersonate gets upstream's message.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentialsOf, pinnedKubectl, startServer, type TestServer } from './harness.js';

const skip = pinnedKubectl() === undefined ? 'kubectl is not installed' : false;

function whoami(server: TestServer, args: readonly string[]): unknown {
  const run = server.kubectl(['auth', 'whoami', '-o', 'json', ...args]);
  assert.equal(run.code, 0, run.stderr);
  return (JSON.parse(run.stdout) as { status: { userInfo: unknown } }).status.userInfo;
}

describe('impersonation with kubectl, AlwaysAllow', { skip }, () => {
  let server: TestServer;
  before(async () => (server = await startServer()));
  after(() => server?.stop());

  it('reports the impersonated user and groups from auth whoami', () => {
    assert.deepEqual(whoami(server, ['--as', 'alice', '--as-group', 'g1', '--as-group', 'g2']), { username: 'alice', groups: ['g1', 'g2', 'system:authenticated'] });
    assert.deepEqual(whoami(server, ['--as', 'alice', '--as-uid', 'uid-1']), { username: 'alice', uid: 'uid-1', groups: ['system:authenticated'] });
  });

  it('gives an impersonated service account its groups', () => {
    assert.deepEqual(whoami(server, ['--as', 'system:serviceaccount:ns1:builder']), {
      username: 'system:serviceaccount:ns1:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
    });
  });

  it('refuses a group without a user with upstream\'s 400 (kubectl itself will not send one)', async () => {
    const res = await server.request('/api/v1/namespaces', { headers: { 'Impersonate-Group': 'g1' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'requested [{Group  g1    }] without impersonating a user', reason: 'BadRequest', code: 400,
    });
  });
});

describe('impersonation with kubectl, AlwaysDeny', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-impersonation-'));
  const tokens = join(dir, 'tokens.csv');
  const aliceConfig = join(dir, 'alice.kubeconfig');
  let server: TestServer;
  before(async () => {
    writeFileSync(tokens, 'alice-secret,alice,uid-a\n');
    server = await startServer(['--authorization-mode', 'AlwaysDeny', '--token-auth-file', tokens]);
    const ca = credentialsOf(server.kubeconfig).ca.toString('base64');
    writeFileSync(
      aliceConfig,
      [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: c, cluster: {server: "${server.url}", certificate-authority-data: ${ca}}}]`,
        'users: [{name: alice, user: {token: alice-secret}}]',
        'contexts: [{name: c, context: {cluster: c, user: alice}}]',
        'current-context: c',
        '',
      ].join('\n'),
    );
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  // --raw: without it kubectl first asks for discovery, and hides a 403 there behind its own words.
  it('refuses a user the authorizer does not let impersonate, in upstream\'s words', () => {
    const run = server.kubectl(['--kubeconfig', aliceConfig, 'get', '--raw', '/api/v1/namespaces', '--as', 'carol']);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr.trim(),
      'Error from server (Forbidden): users "carol" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope: Everything is forbidden.',
    );
  });

  it('lets system:masters impersonate, and then authorizes the request as the impersonated user', () => {
    const run = server.kubectl(['get', '--raw', '/api/v1/namespaces', '--as', 'alice', '--as-group', 'g1']);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr.trim(),
      'Error from server (Forbidden): namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope: Everything is forbidden.',
    );
    assert.deepEqual(whoami(server, ['--as', 'alice', '--as-group', 'system:masters']), { username: 'alice', groups: ['system:masters', 'system:authenticated'] });
  });
});
