/**
 * TLS material for the bare-server ceiling, made like Capstan's own: an ECDSA P-256 CA, a serving
 * certificate for 127.0.0.1 and a client certificate, so the handshake and record costs match.
 */
import { CertificateAuthority, type KeyPairPem } from '../../src/server/tls/certificate-authority.js';

export interface CeilingCertificates {
  readonly caPem: string;
  readonly server: KeyPairPem;
  readonly client: KeyPairPem;
}

export async function makeCeilingCertificates(): Promise<CeilingCertificates> {
  const ca = await CertificateAuthority.create('capstan-bench-ca', 1);
  const server = await ca.issue({ commonName: 'bare-server', subjectAltNames: ['127.0.0.1', 'localhost'], usage: 'server', validDays: 1 });
  const client = await ca.issue({ commonName: 'bench-client', usage: 'client', validDays: 1 });
  return { caPem: ca.pem.certPem, server, client };
}
