/**
 * The certificates the CA writes, read back by two parsers that share none of its code: Node's
 * (OpenSSL's) X509Certificate, and @peculiar/x509 for the extensions Node does not show. Go reads
 * them in the etcd TLS test and in every kubectl test.
 */
import 'reflect-metadata';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate as NodeCertificate, createHash, createPrivateKey, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as asn1 from 'asn1js';
import { CertificateAuthority } from '../../src/server/tls/certificate-authority.js';

const crypto = webcrypto as unknown as Crypto;
const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

function extension<T extends x509.Extension>(cert: x509.X509Certificate, type: new (raw: BufferSource) => T): T {
  const found = cert.getExtension(type);
  assert.ok(found, `no ${type.name}`);
  return found;
}

/** SHA-1 of the public key's bits (the last 65 bytes of a P-256 SPKI: the uncompressed point). */
function keyIdOf(cert: NodeCertificate): string {
  const spki = cert.publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha1').update(spki.subarray(spki.length - 65)).digest('hex');
}

describe('CertificateAuthority', () => {
  it('creates a self-signed CA for signing certificates, on a P-256 key', async () => {
    const ca = await CertificateAuthority.create('capstan-ca', 3650);
    const cert = new NodeCertificate(ca.pem.certPem);
    assert.equal(cert.subject, 'CN=capstan-ca');
    assert.equal(cert.issuer, 'CN=capstan-ca');
    assert.equal(cert.ca, true);
    assert.ok(cert.verify(cert.publicKey));
    assert.equal(cert.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assert.match(ca.pem.keyPem, /^-----BEGIN PRIVATE KEY-----\n([A-Za-z0-9+/=]{64}\n)*[A-Za-z0-9+/=]{1,64}\n-----END PRIVATE KEY-----\n$/);
    assert.match(ca.pem.certPem, /\n-----END CERTIFICATE-----\n$/);
    // Valid from a little before now, for 3650 days.
    const from = Date.parse(cert.validFrom);
    assert.ok(from <= Date.now() && from > Date.now() - 10 * 60_000);
    assert.ok(Math.abs(Date.parse(cert.validTo) - Date.now() - 3650 * DAY_MS) < 60_000);
    // A positive serial in 16 bytes, minimally encoded (Go refuses anything else).
    assert.match(cert.serialNumber, /^[1-7][0-9A-F]{31}$|^0[1-9A-F][0-9A-F]{30}$/);

    const parsed = new x509.X509Certificate(ca.pem.certPem);
    const constraints = extension(parsed, x509.BasicConstraintsExtension);
    assert.equal(constraints.ca, true);
    assert.equal(constraints.critical, true);
    const usages = extension(parsed, x509.KeyUsagesExtension);
    assert.equal(usages.usages, x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign);
    assert.equal(usages.critical, true);
    assert.equal(extension(parsed, x509.SubjectKeyIdentifierExtension).keyId, keyIdOf(cert));
  });

  it('issues serving and client certificates that chain to it', async () => {
    const ca = await CertificateAuthority.create('capstan-ca', 1);
    const caCert = new NodeCertificate(ca.pem.certPem);
    const names = ['localhost', '127.0.0.1', '::1', 'kubernetes.default.svc', '10.96.0.1', '2001:db8::8a2e:370:7334'];
    const serving = await ca.issue({ commonName: 'capstan-apiserver', subjectAltNames: names, usage: 'server', validDays: 365 });
    const client = await ca.issue({ commonName: 'capstan-admin', organizations: ['system:masters', 'dev'], usage: 'client', validDays: 2 });

    const servingCert = new NodeCertificate(serving.certPem);
    assert.ok(servingCert.checkIssued(caCert) && servingCert.verify(caCert.publicKey));
    assert.ok(servingCert.checkPrivateKey(createPrivateKey(serving.keyPem)));
    assert.equal(servingCert.ca, false);
    assert.deepEqual(servingCert.keyUsage, ['1.3.6.1.5.5.7.3.1']);
    assert.equal(servingCert.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:kubernetes.default.svc, IP Address:10.96.0.1, IP Address:2001:DB8:0:0:0:8A2E:370:7334');
    assert.ok(Math.abs(Date.parse(servingCert.validTo) - Date.now() - 365 * DAY_MS) < 60_000);

    const clientCert = new NodeCertificate(client.certPem);
    assert.ok(clientCert.checkIssued(caCert) && clientCert.verify(caCert.publicKey));
    assert.equal(clientCert.subject, 'CN=capstan-admin\nO=system:masters\nO=dev');
    assert.deepEqual(clientCert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    assert.equal(clientCert.subjectAltName, undefined);

    for (const pem of [serving.certPem, client.certPem]) {
      const parsed = new x509.X509Certificate(pem);
      const constraints = extension(parsed, x509.BasicConstraintsExtension);
      assert.equal(constraints.ca, false);
      assert.equal(constraints.critical, true);
      assert.equal(extension(parsed, x509.KeyUsagesExtension).usages, x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment);
      assert.equal(extension(parsed, x509.SubjectKeyIdentifierExtension).keyId, keyIdOf(new NodeCertificate(pem)));
      assert.equal(extension(parsed, x509.AuthorityKeyIdentifierExtension).keyId, keyIdOf(caCert));
    }
    const altNames = extension(new x509.X509Certificate(serving.certPem), x509.SubjectAlternativeNameExtension).names.toJSON();
    assert.deepEqual(altNames.map((n) => n.type), ['dns', 'ip', 'ip', 'dns', 'ip', 'ip']);
  });

  it('writes dates from 2050 on as GeneralizedTime, and earlier ones as UTCTime', async () => {
    const ca = await CertificateAuthority.create('long-lived', 40 * 365);
    const cert = new NodeCertificate(ca.pem.certPem);
    assert.ok(new Date(cert.validTo).getUTCFullYear() >= 2050);
    assert.ok(Math.abs(Date.parse(cert.validTo) - Date.now() - 40 * 365 * DAY_MS) < 60_000);
    // The validity's notBefore is a UTCTime (tag 23), its notAfter a GeneralizedTime (tag 24).
    const certificate = asn1.fromBER(cert.raw).result as asn1.Sequence;
    const toBeSigned = certificate.valueBlock.value[0] as asn1.Sequence;
    const validity = toBeSigned.valueBlock.value[4] as asn1.Sequence;
    assert.deepEqual(validity.valueBlock.value.map((time) => time.idBlock.tagNumber), [23, 24]);
  });

  it('signs with a loaded CA, naming it as a freshly created one would', async () => {
    const created = await CertificateAuthority.create('capstan-ca', 1);
    const loaded = await CertificateAuthority.load(created.pem);
    const leaf = new NodeCertificate((await loaded.issue({ commonName: 'again', usage: 'client', validDays: 1 })).certPem);
    const caCert = new NodeCertificate(created.pem.certPem);
    assert.ok(leaf.checkIssued(caCert) && leaf.verify(caCert.publicKey));
    assert.equal(extension(new x509.X509Certificate(leaf.toString()), x509.AuthorityKeyIdentifierExtension).keyId, keyIdOf(caCert));
  });

  it('signs with a CA made elsewhere: its own key identifier, or one computed when it has none', async () => {
    for (const keyId of ['0102030405', undefined]) {
      const keys = await webcrypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
      const cert = await x509.X509CertificateGenerator.createSelfSigned(
        {
          serialNumber: '01',
          name: 'CN=elsewhere, O=another tool',
          keys,
          signingAlgorithm: EC_P256,
          notBefore: new Date(Date.now() - 60_000),
          notAfter: new Date(Date.now() + DAY_MS),
          extensions: [
            new x509.BasicConstraintsExtension(true, undefined, true),
            ...(keyId ? [new x509.SubjectKeyIdentifierExtension(keyId)] : []),
          ],
        },
        crypto,
      );
      const keyPem = x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
      const ca = await CertificateAuthority.load({ certPem: cert.toString('pem'), keyPem });
      const leafPem = (await ca.issue({ commonName: 'leaf', usage: 'server', subjectAltNames: ['localhost'], validDays: 1 })).certPem;
      const caCert = new NodeCertificate(cert.toString('pem'));
      const leaf = new NodeCertificate(leafPem);
      assert.equal(leaf.issuer, 'CN=elsewhere\nO=another tool');
      assert.ok(leaf.checkIssued(caCert) && leaf.verify(caCert.publicKey));
      assert.equal(extension(new x509.X509Certificate(leafPem), x509.AuthorityKeyIdentifierExtension).keyId, keyId ?? keyIdOf(caCert));
    }
  });
});
