/**
 * --requestheader-* against the real server: a front proxy whose client certificate comes from
 * --requestheader-client-ca-file (and has an allowed common name) names the user in headers; a
 * proxy without a user header, one with another name, and a client of the cluster CA sending the
 * same headers do not get that user.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CertificateAuthority } from '../../src/server/tls/certificate-authority.js';
import { startServer, type TestServer } from './harness.js';

interface Pair {
  readonly certPem: string;
  readonly keyPem: string;
}

describe('--requestheader-*', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-requestheader-'));
  let server: TestServer;
  let proxy: Pair;
  let stranger: Pair;

  /** SelfSubjectReview's user as `client` (a certificate, or none) sending `headers`; undefined on 401. */
  function whoAmI(client: Pair | undefined, headers: Record<string, string | string[]>): Promise<Record<string, unknown> | undefined> {
    const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    return new Promise((resolve, reject) => {
      const req = request(`${server.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
        method: 'POST',
        ca: readFileSync(join(server.dataDir, 'pki', 'ca.crt'), 'utf8'),
        ...(client ? { cert: client.certPem, key: client.keyPem } : {}),
        headers: { 'Content-Type': 'application/json', ...headers },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode === 401) return resolve(undefined);
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode !== 201) return reject(new Error(`${res.statusCode}: ${text}`));
          resolve(JSON.parse(text).status.userInfo);
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  before(async () => {
    const ca = await CertificateAuthority.create('front-proxy-ca', 1);
    proxy = await ca.issue({ commonName: 'front-proxy-client', usage: 'client', validDays: 1 });
    stranger = await ca.issue({ commonName: 'other-proxy', usage: 'client', validDays: 1 });
    writeFileSync(join(dir, 'front-proxy-ca.crt'), ca.pem.certPem);
    server = await startServer([
      '--requestheader-client-ca-file', join(dir, 'front-proxy-ca.crt'),
      '--requestheader-allowed-names', 'front-proxy-client',
      '--requestheader-username-headers', 'X-Remote-User',
      '--requestheader-uid-headers', 'X-Remote-Uid',
      '--requestheader-group-headers', 'X-Remote-Group',
      '--requestheader-extra-headers-prefix', 'X-Remote-Extra-',
    ]);
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes the user, UID, every group and the extras a front proxy names', async () => {
    const user = await whoAmI(proxy, { 'X-Remote-User': 'alice', 'X-Remote-Uid': 'uid-a', 'X-Remote-Group': ['devs', 'ops'], 'X-Remote-Extra-Acme.com%2Fscopes': 'read' });
    assert.deepEqual(user, { username: 'alice', uid: 'uid-a', groups: ['devs', 'ops', 'system:authenticated'], extra: { 'acme.com/scopes': ['read'] } });
  });

  it('refuses a front proxy that names no user, and one whose name is not allowed', async () => {
    assert.equal(await whoAmI(proxy, {}), undefined);
    assert.equal(await whoAmI(stranger, { 'X-Remote-User': 'alice' }), undefined);
  });

  it('ignores the headers from anyone else: a client of the cluster CA stays itself, one without a certificate is refused', async () => {
    const admin = { certPem: readFileSync(join(server.dataDir, 'pki', 'admin.crt'), 'utf8'), keyPem: readFileSync(join(server.dataDir, 'pki', 'admin.key'), 'utf8') };
    assert.equal((await whoAmI(admin, { 'X-Remote-User': 'alice' }))?.['username'], 'capstan-admin');
    // 401, not alice: the default AlwaysAllow authorizer leaves no anonymous access, as upstream.
    assert.equal(await whoAmI(undefined, { 'X-Remote-User': 'alice' }), undefined);
  });
});
