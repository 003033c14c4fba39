/**
 * The server's TLS material. Without --tls-cert-file, the first start creates in --cert-dir a
 * cluster CA, a serving certificate and an admin client certificate; later starts reuse them,
 * reissuing a leaf only when it is about to expire, was signed by another CA, or (serving) lacks
 * a name the server must answer to, e.g. after --bind-address changed.
 *
 *   <cert-dir>/ca.crt ca.key              cluster CA (10 years): signs the other two, trusted for client certs
 *   <cert-dir>/apiserver.crt apiserver.key  serving certificate (1 year)
 *   <cert-dir>/admin.crt admin.key          CN=capstan-admin, O=system:masters (1 year)
 */
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { CertificateAuthority, type KeyPairPem } from './certificate-authority.js';
import { isValidFor, parseCertificates, readIfExists, writeAtomic } from './pem-files.js';
import { isIpAddress } from '../../util/ip-address.js';
import type { Logger } from '../logger.js';

export interface TlsBootstrapOptions {
  readonly certDir: string;
  readonly tlsCertFile?: string;
  readonly tlsPrivateKeyFile?: string;
  /** Extra CAs trusted for client certificates (--client-ca-file). */
  readonly clientCaFile?: string;
  /** Names and IPs the generated serving certificate must cover. */
  readonly subjectAltNames: readonly string[];
  readonly logger: Logger;
}

export interface TlsMaterial {
  /** Serving certificate (with any chain after it) and key, PEM. */
  readonly serving: KeyPairPem;
  /** CAs a client should trust for the serving certificate (for kubeconfigs). */
  readonly servingCaPem: string;
  /** CAs whose client certificates authenticate users: the cluster CA plus --client-ca-file. */
  readonly clientCaPem: string;
  /** The cluster CA certificate, PEM. */
  readonly clusterCaPem: string;
  /** Admin client certificate (system:masters), signed by the cluster CA. */
  readonly admin: KeyPairPem;
}

export const ADMIN_USER = 'capstan-admin';
export const ADMIN_GROUP = 'system:masters';
const CA_DAYS = 3650;
const LEAF_DAYS = 365;
/** Reissue leaves that expire within this margin rather than fail in the middle of a session. */
const RENEW_MARGIN_MS = 30 * 86_400_000;

/** Loads or creates the TLS material; see the file comment. Throws on unreadable given files. */
export async function bootstrapTls(options: TlsBootstrapOptions): Promise<TlsMaterial> {
  const files = certFiles(options.certDir);
  const ca = await loadOrCreateCa(files, options.logger);
  const clusterCaCert = new X509Certificate(ca.pem.certPem);
  const given = options.tlsCertFile && options.tlsPrivateKeyFile ? { cert: options.tlsCertFile, key: options.tlsPrivateKeyFile } : undefined;
  const covers = (cert: X509Certificate) => options.subjectAltNames.every((name) => coversName(cert, name));
  // The two leaves are independent: issued together, the key generation and signing of one (on
  // the thread pool) overlap the other's work on this thread.
  const [admin, issuedServing, extraClientCas] = await Promise.all([
    loadOrIssue(files.admin, ca, clusterCaCert, () => true, options.logger, {
      commonName: ADMIN_USER,
      organizations: [ADMIN_GROUP],
      usage: 'client',
      validDays: LEAF_DAYS,
    }),
    given
      ? undefined
      : loadOrIssue(files.serving, ca, clusterCaCert, covers, options.logger, {
          commonName: 'capstan-apiserver',
          subjectAltNames: options.subjectAltNames,
          usage: 'server',
          validDays: LEAF_DAYS,
        }),
    options.clientCaFile ? readFile(options.clientCaFile, 'utf8') : '',
  ]);
  const clientCaPem = ca.pem.certPem + (extraClientCas.endsWith('\n') || extraClientCas === '' ? extraClientCas : extraClientCas + '\n');

  if (given) {
    const serving = { certPem: await readFile(given.cert, 'utf8'), keyPem: await readFile(given.key, 'utf8') };
    return { serving, servingCaPem: caOfGivenCertificate(serving.certPem), clientCaPem, clusterCaPem: ca.pem.certPem, admin };
  }
  return { serving: issuedServing!, servingCaPem: ca.pem.certPem, clientCaPem, clusterCaPem: ca.pem.certPem, admin };
}

interface PairFiles {
  readonly cert: string;
  readonly key: string;
}

function certFiles(dir: string) {
  const pair = (name: string): PairFiles => ({ cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) });
  return { ca: pair('ca'), serving: pair('apiserver'), admin: pair('admin') };
}

/**
 * The cluster CA's PEM, and its signer on demand: loading the signing library costs more than
 * everything else at startup, so it happens only when a certificate must actually be issued.
 */
interface CaHandle {
  readonly pem: KeyPairPem;
  signer(): Promise<CertificateAuthority>;
}

async function loadOrCreateCa(files: ReturnType<typeof certFiles>, logger: Logger): Promise<CaHandle> {
  const existing = await readPair(files.ca);
  if (existing) {
    try {
      if (isValidFor(new X509Certificate(existing.certPem), RENEW_MARGIN_MS)) {
        let signer: Promise<CertificateAuthority> | undefined;
        return { pem: existing, signer: () => (signer ??= CertificateAuthority.load(existing)) };
      }
      logger.warn(`cluster CA ${files.ca.cert} expires soon; creating a new one (existing client certificates stop working)`);
    } catch (err) {
      logger.warn(`cannot use cluster CA ${files.ca.cert} (${(err as Error).message}); creating a new one`);
    }
  }
  const ca = await CertificateAuthority.create('capstan-ca', CA_DAYS);
  await writePair(files.ca, ca.pem);
  logger.info(`generated cluster CA in ${files.ca.cert}`);
  return { pem: ca.pem, signer: async () => ca };
}

async function loadOrIssue(
  files: PairFiles,
  ca: CaHandle,
  caCert: X509Certificate,
  acceptable: (cert: X509Certificate) => boolean,
  logger: Logger,
  request: Parameters<CertificateAuthority['issue']>[0],
): Promise<KeyPairPem> {
  const existing = await readPair(files);
  if (existing) {
    try {
      const cert = new X509Certificate(existing.certPem);
      if (cert.checkIssued(caCert) && cert.verify(caCert.publicKey) && isValidFor(cert, RENEW_MARGIN_MS) && acceptable(cert)) return existing;
    } catch {
      // Unparseable: fall through and replace it.
    }
  }
  const issued = await (await ca.signer()).issue(request);
  await writePair(files, issued);
  logger.info(`${existing ? 'reissued' : 'generated'} certificate ${files.cert}`);
  return issued;
}

async function readPair(files: PairFiles): Promise<KeyPairPem | undefined> {
  const [certPem, keyPem] = await Promise.all([readIfExists(files.cert), readIfExists(files.key)]);
  return certPem && keyPem ? { certPem, keyPem } : undefined;
}

async function writePair(files: PairFiles, pair: KeyPairPem): Promise<void> {
  await writeAtomic(files.key, pair.keyPem, true);
  await writeAtomic(files.cert, pair.certPem, false);
}

function coversName(cert: X509Certificate, name: string): boolean {
  return isIpAddress(name) ? cert.checkIP(name) !== undefined : cert.checkHost(name, { wildcards: false }) !== undefined;
}

/**
 * What a client should trust for a certificate given with --tls-cert-file: the CA certificates
 * concatenated after it, or the certificate itself when it stands alone (self-signed).
 */
function caOfGivenCertificate(pem: string): string {
  const certs = parseCertificates(pem);
  const chain = certs.length > 1 ? certs.slice(1) : certs;
  return chain.map((c) => c.toString()).join('');
}
