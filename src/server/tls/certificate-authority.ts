/**
 * A small certificate authority on ECDSA P-256 keys (milliseconds to generate), built on
 * @peculiar/x509 with Node's WebCrypto passed in explicitly, so no global crypto provider is set.
 * The library is loaded on first use only: a server that reuses its certificates never pays for it.
 */
import { webcrypto } from 'node:crypto';
import { isIpAddress } from '../../util/ip-address.js';

/** A certificate and its private key, both PEM. */
export interface KeyPairPem {
  readonly certPem: string;
  readonly keyPem: string;
}

export interface LeafRequest {
  readonly commonName: string;
  readonly organizations?: readonly string[];
  /** DNS names and IP addresses; IPs are recognized by their syntax. */
  readonly subjectAltNames?: readonly string[];
  readonly usage: 'server' | 'client';
  readonly validDays: number;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
/** Certificates start a little in the past so that a client with a slow clock accepts them. */
const BACKDATE_MS = 5 * 60_000;
const DAY_MS = 86_400_000;
/** Node's WebCrypto under the DOM type name the library declares. */
const crypto = webcrypto as unknown as Crypto;

type X509Module = typeof import('@peculiar/x509');

async function loadX509(): Promise<X509Module> {
  // The library's dependency injection container needs the Reflect metadata API.
  await import('reflect-metadata');
  return import('@peculiar/x509');
}

export class CertificateAuthority {
  private constructor(
    private readonly x509: X509Module,
    private readonly cert: InstanceType<X509Module['X509Certificate']>,
    private readonly key: CryptoKey,
    /** The CA as PEM. */
    readonly pem: KeyPairPem,
  ) {}

  /** Creates a new self-signed CA, valid for `validDays`. */
  static async create(commonName: string, validDays: number): Promise<CertificateAuthority> {
    const x509 = await loadX509();
    const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
    const cert = await x509.X509CertificateGenerator.createSelfSigned(
      {
        serialNumber: randomSerial(),
        name: [{ CN: [commonName] }],
        notBefore: new Date(Date.now() - BACKDATE_MS),
        notAfter: new Date(Date.now() + validDays * DAY_MS),
        keys,
        signingAlgorithm: ALGORITHM,
        extensions: [
          new x509.BasicConstraintsExtension(true, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
          await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
        ],
      },
      crypto,
    );
    const pem = { certPem: cert.toString('pem') + '\n', keyPem: await privateKeyPem(keys.privateKey) };
    return new CertificateAuthority(x509, cert, keys.privateKey, pem);
  }

  /** Loads an existing CA (certificate and PKCS#8 key, PEM). Throws if either cannot be parsed. */
  static async load(pem: KeyPairPem): Promise<CertificateAuthority> {
    const x509 = await loadX509();
    const cert = new x509.X509Certificate(pem.certPem);
    const der = Buffer.from(pem.keyPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    const key = await webcrypto.subtle.importKey('pkcs8', der, ALGORITHM, false, ['sign']);
    return new CertificateAuthority(x509, cert, key, pem);
  }

  /** Issues a leaf certificate with a fresh key, signed by this CA. */
  async issue(request: LeafRequest): Promise<KeyPairPem> {
    const { x509 } = this;
    const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
    const subject: Array<Record<string, string[]>> = [{ CN: [request.commonName] }];
    if (request.organizations?.length) subject.push({ O: [...request.organizations] });
    const extensions: Array<InstanceType<X509Module['Extension']>> = [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([request.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
      new x509.AuthorityKeyIdentifierExtension(this.cert.getExtension(x509.SubjectKeyIdentifierExtension)!.keyId),
    ];
    if (request.subjectAltNames?.length) {
      extensions.push(
        new x509.SubjectAlternativeNameExtension(
          request.subjectAltNames.map((value) => ({ type: isIpAddress(value) ? ('ip' as const) : ('dns' as const), value })),
        ),
      );
    }
    const cert = await x509.X509CertificateGenerator.create(
      {
        serialNumber: randomSerial(),
        subject,
        issuer: this.cert.subject,
        notBefore: new Date(Date.now() - BACKDATE_MS),
        notAfter: new Date(Date.now() + request.validDays * DAY_MS),
        publicKey: keys.publicKey,
        signingKey: this.key,
        signingAlgorithm: ALGORITHM,
        extensions,
      },
      crypto,
    );
    return { certPem: cert.toString('pem') + '\n', keyPem: await privateKeyPem(keys.privateKey) };
  }
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  const lines = der.toString('base64').match(/.{1,64}/g)!.join('\n');
  return `-----BEGIN PRIVATE KEY-----\n${lines}\n-----END PRIVATE KEY-----\n`;
}

/** 16 random bytes, top bit clear so the serial is a positive integer as RFC 5280 requires. */
function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0]! &= 0x7f;
  return Buffer.from(bytes).toString('hex');
}
