/**
 * A small certificate authority on ECDSA P-256 keys: Node's crypto makes the keys (milliseconds)
 * and the signatures, certificate-der.ts writes the certificates.
 */
import { X509Certificate, createPrivateKey, generateKeyPair, randomBytes, sign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { ipAddressBytes, isIpAddress } from '../../util/ip-address.js';
import { CertificateDer, type CertificateExtension } from './certificate-der.js';

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

/** Certificates start a little in the past so that a client with a slow clock accepts them. */
const BACKDATE_MS = 5 * 60_000;
const DAY_MS = 86_400_000;
const newEcKeyPair = promisify(generateKeyPair);

export class CertificateAuthority {
  private constructor(
    private readonly der: CertificateDer,
    /** The CA's subject Name (DER), the issuer of what it signs. */
    private readonly subject: Uint8Array,
    private readonly keyId: Uint8Array,
    private readonly key: KeyObject,
    /** The CA as PEM. */
    readonly pem: KeyPairPem,
  ) {}

  /** Creates a new self-signed CA, valid for `validDays`. */
  static async create(commonName: string, validDays: number): Promise<CertificateAuthority> {
    const der = await CertificateDer.load();
    const keys = await newKeyPair();
    const subject = der.name(commonName);
    const publicKeyInfo = keys.publicKey.export({ type: 'spki', format: 'der' });
    const keyId = der.keyIdentifier(publicKeyInfo);
    const certificate = der.certificate(
      {
        serial: randomSerial(),
        issuer: subject,
        subject,
        ...validity(validDays),
        publicKeyInfo,
        extensions: [
          der.basicConstraints(true),
          der.keyUsage(['digitalSignature', 'keyCertSign', 'cRLSign']),
          der.subjectKeyIdentifier(keyId),
        ],
      },
      (toBeSigned) => sign('sha256', toBeSigned, keys.privateKey),
    );
    const pem = { certPem: certificatePem(certificate), keyPem: privateKeyPem(keys.privateKey) };
    return new CertificateAuthority(der, subject, keyId, keys.privateKey, pem);
  }

  /** Loads an existing CA (certificate and PKCS#8 key, PEM). Throws if either cannot be parsed. */
  static async load(pem: KeyPairPem): Promise<CertificateAuthority> {
    const der = await CertificateDer.load();
    const { subject, keyId } = der.issuerOf(new X509Certificate(pem.certPem).raw);
    return new CertificateAuthority(der, subject, keyId, createPrivateKey(pem.keyPem), pem);
  }

  /** Issues a leaf certificate with a fresh key, signed by this CA. */
  async issue(request: LeafRequest): Promise<KeyPairPem> {
    const { der } = this;
    const keys = await newKeyPair();
    const publicKeyInfo = keys.publicKey.export({ type: 'spki', format: 'der' });
    const extensions: CertificateExtension[] = [
      der.basicConstraints(false),
      der.keyUsage(['digitalSignature', 'keyEncipherment']),
      der.extendedKeyUsage([request.usage === 'server' ? 'serverAuth' : 'clientAuth']),
      der.subjectKeyIdentifier(der.keyIdentifier(publicKeyInfo)),
      der.authorityKeyIdentifier(this.keyId),
    ];
    if (request.subjectAltNames?.length) {
      extensions.push(
        der.subjectAltNames(request.subjectAltNames.map((name) => (isIpAddress(name) ? { ip: ipAddressBytes(name) } : { dns: name }))),
      );
    }
    const certificate = der.certificate(
      {
        serial: randomSerial(),
        issuer: this.subject,
        subject: der.name(request.commonName, request.organizations),
        ...validity(request.validDays),
        publicKeyInfo,
        extensions,
      },
      (toBeSigned) => sign('sha256', toBeSigned, this.key),
    );
    return { certPem: certificatePem(certificate), keyPem: privateKeyPem(keys.privateKey) };
  }
}

function newKeyPair(): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
  return newEcKeyPair('ec', { namedCurve: 'P-256' });
}

function validity(days: number): { notBefore: Date; notAfter: Date } {
  const now = Date.now();
  return { notBefore: new Date(now - BACKDATE_MS), notAfter: new Date(now + days * DAY_MS) };
}

function certificatePem(der: Uint8Array): string {
  return pemBlock('CERTIFICATE', der);
}

function privateKeyPem(key: KeyObject): string {
  return pemBlock('PRIVATE KEY', key.export({ type: 'pkcs8', format: 'der' }));
}

/** A PEM block: base64 in lines of 64 characters (RFC 7468), ending with a newline. */
function pemBlock(label: string, der: Uint8Array): string {
  const lines = Buffer.from(der).toString('base64').match(/.{1,64}/g)!.join('\n');
  return `-----BEGIN ${label}-----\n${lines}\n-----END ${label}-----\n`;
}

/**
 * 16 random bytes as a positive integer, as RFC 5280 requires: the top bit clear, and the first
 * byte not zero, so that the encoding is minimal (Go refuses a serial that is not).
 */
function randomSerial(): Uint8Array {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f || 1;
  return bytes;
}
