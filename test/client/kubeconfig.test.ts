/**
 * Reading a kubeconfig for a webhook: the current context's cluster and user, inline data or
 * files relative to the kubeconfig, tokens from a file, and the configurations that name no server.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKubeconfig } from '../../src/client/kubeconfig.js';

const dir = mkdtempSync(join(tmpdir(), 'capstan-kubeconfig-'));
let n = 0;
function file(text: string, name = `config-${n++}`): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('loadKubeconfig', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the current context\'s cluster and user, with inline data', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const path = file(`
apiVersion: v1
kind: Config
clusters:
- {name: other, cluster: {server: "https://other:1"}}
- name: mine
  cluster: {server: "https://127.0.0.1:9443/hook", certificate-authority-data: ${b64('CA')}, tls-server-name: sink.local}
users:
- name: me
  user: {client-certificate-data: ${b64('CERT')}, client-key-data: ${b64('KEY')}}
contexts:
- {name: ctx, context: {cluster: mine, user: me}}
current-context: ctx
`);
    assert.deepEqual(loadKubeconfig(path), {
      server: 'https://127.0.0.1:9443/hook', insecureSkipTlsVerify: false, caPem: 'CA', tlsServerName: 'sink.local', certPem: 'CERT', keyPem: 'KEY',
    });
  });

  it('reads files relative to the kubeconfig, a token file, and basic credentials', () => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'ca.pem'), 'CA FILE');
    writeFileSync(join(dir, 'sub', 'token'), 'tok-123\n');
    const path = file(`
clusters: [{name: c, cluster: {server: "https://h", certificate-authority: ca.pem, insecure-skip-tls-verify: true}}]
users: [{name: u, user: {tokenFile: token}}, {name: b, user: {username: ann, password: pw}}]
contexts: [{name: x, context: {cluster: c, user: u}}, {name: y, context: {cluster: c, user: b}}]
current-context: x
`, join('sub', 'config'));
    assert.deepEqual(loadKubeconfig(path), { server: 'https://h', insecureSkipTlsVerify: true, caPem: 'CA FILE', bearerToken: 'tok-123' });
    const basic = file(`
clusters: [{name: c, cluster: {server: "https://h"}}]
users: [{name: b, user: {username: ann, password: pw}}]
contexts: [{name: y, context: {cluster: c, user: b}}]
current-context: y
`);
    assert.deepEqual(loadKubeconfig(basic).basic, { username: 'ann', password: 'pw' });
  });

  it('refuses configurations that name no server, and plugins it cannot run', () => {
    assert.throws(() => loadKubeconfig(file('apiVersion: v1\nkind: Config\n')), { message: 'invalid configuration: no configuration has been provided' });
    assert.throws(() => loadKubeconfig(file('current-context: gone\n')), {
      message: 'invalid configuration: [context was not found for specified context: gone, cluster has no server defined]',
    });
    assert.throws(() => loadKubeconfig(file('clusters: [{name: c, cluster: {}}]\ncontexts: [{name: x, context: {cluster: c}}]\ncurrent-context: x\n')), {
      message: 'invalid configuration: [cluster has no server defined]',
    });
    assert.throws(
      () => loadKubeconfig(file('clusters: [{name: c, cluster: {server: "https://h"}}]\nusers: [{name: u, user: {exec: {command: x}}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n')),
      /exec and auth-provider credentials are not supported/,
    );
    assert.throws(() => loadKubeconfig(join(dir, 'absent')), /ENOENT/);
  });
});
