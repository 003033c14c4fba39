import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SilentLogger } from '../../src/server/logger.js';
import { bootstrapTls } from '../../src/server/tls/bootstrap.js';
import { CertificateAuthority } from '../../src/server/tls/certificate-authority.js';
import { writeObject } from '../../src/server/write-response.js';
import { startTestServer } from './test-server.js';

const SANS = ['localhost', '127.0.0.1', '::1', 'kubernetes.default.svc', '10.0.0.1'];

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'capstan-tls-'));
}

describe('bootstrapTls', () => {
  it('generates a CA, a serving certificate with the SANs and an admin certificate, keys 0600', async () => {
    const dir = tempDir();
    try {
      const tls = await bootstrapTls({ certDir: dir, subjectAltNames: SANS, logger: new SilentLogger() });
      const ca = new X509Certificate(tls.clusterCaPem);
      const serving = new X509Certificate(tls.serving.certPem);
      const admin = new X509Certificate(tls.admin.certPem);
      assert.equal(ca.ca, true);
      assert.ok(serving.checkIssued(ca) && serving.verify(ca.publicKey));
      for (const name of ['localhost', 'kubernetes.default.svc']) assert.equal(serving.checkHost(name), name);
      for (const ip of ['127.0.0.1', '::1', '10.0.0.1']) assert.ok(serving.checkIP(ip), ip);
      assert.deepEqual(serving.keyUsage, ['1.3.6.1.5.5.7.3.1']);
      assert.equal(admin.subject, 'CN=capstan-admin\nO=system:masters');
      assert.deepEqual(admin.keyUsage, ['1.3.6.1.5.5.7.3.2']);
      assert.equal(serving.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
      for (const key of ['ca.key', 'apiserver.key', 'admin.key']) assert.equal(statSync(join(dir, key)).mode & 0o777, 0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reuses the files on the next start, and reissues only the serving certificate when a name is missing', async () => {
    const dir = tempDir();
    try {
      const first = await bootstrapTls({ certDir: dir, subjectAltNames: SANS, logger: new SilentLogger() });
      const again = await bootstrapTls({ certDir: dir, subjectAltNames: SANS, logger: new SilentLogger() });
      assert.deepEqual(again, first);
      const moved = await bootstrapTls({ certDir: dir, subjectAltNames: [...SANS, '192.0.2.7'], logger: new SilentLogger() });
      assert.equal(moved.clusterCaPem, first.clusterCaPem);
      assert.deepEqual(moved.admin, first.admin);
      assert.notEqual(moved.serving.certPem, first.serving.certPem);
      assert.ok(new X509Certificate(moved.serving.certPem).checkIP('192.0.2.7'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves a given --tls-cert-file and trusts what follows it as its CA', async () => {
    const dir = tempDir();
    try {
      const other = await CertificateAuthority.create('other-ca', 1);
      const leaf = await other.issue({ commonName: 'given', subjectAltNames: ['localhost'], usage: 'server', validDays: 1 });
      writeFileSync(join(dir, 'tls.crt'), leaf.certPem + other.pem.certPem);
      writeFileSync(join(dir, 'tls.key'), leaf.keyPem);
      const tls = await bootstrapTls({
        certDir: join(dir, 'pki'),
        tlsCertFile: join(dir, 'tls.crt'),
        tlsPrivateKeyFile: join(dir, 'tls.key'),
        subjectAltNames: SANS,
        logger: new SilentLogger(),
      });
      assert.equal(tls.serving.keyPem, leaf.keyPem);
      assert.equal(new X509Certificate(tls.servingCaPem).subject, 'CN=other-ca');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('client certificate authentication', () => {
  it('accepts certificates from --client-ca-file and refuses untrusted ones with 401', async () => {
    const dir = tempDir();
    const trusted = await CertificateAuthority.create('team-ca', 1);
    const untrusted = await CertificateAuthority.create('evil-ca', 1);
    writeFileSync(join(dir, 'client-ca.crt'), trusted.pem.certPem);
    const alice = await trusted.issue({ commonName: 'alice', organizations: ['dev', 'ops'], usage: 'client', validDays: 1 });
    const mallory = await untrusted.issue({ commonName: 'mallory', organizations: ['system:masters'], usage: 'client', validDays: 1 });
    const server = await trusted.issue({ commonName: 'not-for-clients', usage: 'server', validDays: 1 });
    const t = await startTestServer({
      options: (o) => ({ ...o, authentication: { ...o.authentication, clientCaFile: join(dir, 'client-ca.crt') } }),
      configure: (s) => s.routes.add('/whoami', async (ctx) => writeObject(ctx, 200, ctx.user)),
    });
    try {
      const ok = await t.anonymous('/whoami', { cert: alice.certPem, key: alice.keyPem });
      assert.deepEqual(JSON.parse(ok.body), { name: 'alice', groups: ['dev', 'ops', 'system:authenticated'] });
      assert.equal((await t.anonymous('/whoami', { cert: mallory.certPem, key: mallory.keyPem })).status, 401);
      assert.equal((await t.anonymous('/whoami', { cert: server.certPem, key: server.keyPem })).status, 401, 'a certificate without client auth usage');
      const kubeconfig = readFileSync(t.info.kubeconfigPath, 'utf8');
      assert.match(kubeconfig, /client-certificate-data: /);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
