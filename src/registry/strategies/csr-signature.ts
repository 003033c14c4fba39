/**
 * The signature check of a certificate request, as Go's x509.CertificateRequest.CheckSignature
 * decides it (upstream refuses a request whose signature does not verify): the algorithms Go
 * knows, SHA-1 allowed (as Go allows it for requests), MD5 refused as insecure, everything else
 * "algorithm unimplemented"; failures worded as Go words them. Node's crypto does the verifying.
 */
import { constants, createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { SignedRequest } from './pkcs10-request.js';

type KeyAlgorithm = 'RSA' | 'ECDSA' | 'Ed25519';

interface SignatureAlgorithm {
  /** Node's digest name; null for Ed25519, which hashes internally. */
  readonly hash: string | null;
  readonly key: KeyAlgorithm;
  /** Set for RSASSA-PSS: its salt length. */
  readonly pssSaltLength?: number;
}

const SIGNATURE_ALGORITHMS: ReadonlyMap<string, SignatureAlgorithm> = new Map([
  ['1.2.840.113549.1.1.5', { hash: 'sha1', key: 'RSA' }],
  ['1.3.14.3.2.29', { hash: 'sha1', key: 'RSA' }],
  ['1.2.840.113549.1.1.11', { hash: 'sha256', key: 'RSA' }],
  ['1.2.840.113549.1.1.12', { hash: 'sha384', key: 'RSA' }],
  ['1.2.840.113549.1.1.13', { hash: 'sha512', key: 'RSA' }],
  ['1.2.840.10045.4.1', { hash: 'sha1', key: 'ECDSA' }],
  ['1.2.840.10045.4.3.2', { hash: 'sha256', key: 'ECDSA' }],
  ['1.2.840.10045.4.3.3', { hash: 'sha384', key: 'ECDSA' }],
  ['1.2.840.10045.4.3.4', { hash: 'sha512', key: 'ECDSA' }],
  ['1.3.101.112', { hash: null, key: 'Ed25519' }],
]);

const MD5_WITH_RSA = '1.2.840.113549.1.1.4';
const RSASSA_PSS = '1.2.840.113549.1.1.10';
/** Go accepts RSASSA-PSS only with the salt as long as the hash. */
const PSS_HASHES: ReadonlyMap<string, { hash: string; saltLength: number }> = new Map([
  ['2.16.840.1.101.3.4.2.1', { hash: 'sha256', saltLength: 32 }],
  ['2.16.840.1.101.3.4.2.2', { hash: 'sha384', saltLength: 48 }],
  ['2.16.840.1.101.3.4.2.3', { hash: 'sha512', saltLength: 64 }],
]);

/** Public key algorithms Go parses, by OID; others leave the request without a usable key. */
const KEY_ALGORITHMS: ReadonlyMap<string, KeyAlgorithm | 'other'> = new Map([
  ['1.2.840.113549.1.1.1', 'RSA'],
  ['1.2.840.10045.2.1', 'ECDSA'],
  ['1.3.101.112', 'Ed25519'],
  ['1.2.840.10040.4.1', 'other'],
  ['1.3.101.110', 'other'],
]);
const GO_CURVES = new Set(['prime256v1', 'secp384r1', 'secp521r1', 'secp224r1']);
/** How Go's %T names each key type. */
const GO_KEY_TYPES: Readonly<Record<KeyAlgorithm, string>> = { RSA: '*rsa.PublicKey', ECDSA: '*ecdsa.PublicKey', Ed25519: 'ed25519.PublicKey' };
const KEY_PARSE_ERRORS: Readonly<Record<KeyAlgorithm, string>> = {
  RSA: 'x509: invalid RSA public key',
  ECDSA: 'x509: failed to unmarshal elliptic curve point',
  Ed25519: 'x509: wrong Ed25519 public key size',
};
const UNSUPPORTED = 'x509: cannot verify signature: algorithm unimplemented';

/** A parsed public key, or Go's parse error for it. */
type ParsedKey = { key: KeyObject; algorithm: KeyAlgorithm } | { error: string } | undefined;

/** Go's error for the request's key or signature, or undefined when the signature verifies. */
export function signatureError(request: SignedRequest): string | undefined {
  const parsed = parsePublicKey(request);
  if (parsed && 'error' in parsed) return parsed.error;
  const algorithmOid = request.signatureAlgorithm;
  if (algorithmOid === MD5_WITH_RSA) return 'x509: cannot verify signature: insecure algorithm MD5-RSA';
  const algorithm = algorithmOid === RSASSA_PSS ? pssAlgorithm(request.pss) : SIGNATURE_ALGORITHMS.get(algorithmOid);
  if (!algorithm || !parsed) return UNSUPPORTED;
  if (algorithm.key !== parsed.algorithm) {
    return `x509: signature algorithm specifies an ${algorithm.key} public key, but have public key of type ${GO_KEY_TYPES[parsed.algorithm]}`;
  }
  if (verifies(algorithm, request.signed, parsed.key, request.signature)) return undefined;
  if (algorithm.key === 'RSA') return 'crypto/rsa: verification error';
  return `x509: ${algorithm.key} verification failure`;
}

function verifies(algorithm: SignatureAlgorithm, signed: Uint8Array, key: KeyObject, signature: Uint8Array): boolean {
  const pss = algorithm.pssSaltLength === undefined ? {} : { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: algorithm.pssSaltLength };
  try {
    return verify(algorithm.hash, signed, { key, ...pss }, signature);
  } catch {
    return false; // a signature Node cannot even decode does not verify
  }
}

/** RSASSA-PSS as Go accepts it: a known hash, and a salt as long as the hash; else undefined. */
function pssAlgorithm(pss: SignedRequest['pss']): SignatureAlgorithm | undefined {
  const hash = pss ? PSS_HASHES.get(pss.hash) : undefined;
  if (!hash || pss!.saltLength !== hash.saltLength) return undefined;
  return { hash: hash.hash, key: 'RSA', pssSaltLength: hash.saltLength };
}

/** The request's key as Go would parse it: undefined for algorithms Go leaves unparsed. */
function parsePublicKey(request: SignedRequest): ParsedKey {
  const algorithm = KEY_ALGORITHMS.get(request.publicKeyAlgorithm);
  if (algorithm === undefined || algorithm === 'other') return undefined;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(request.publicKeyInfo), format: 'der', type: 'spki' });
  } catch {
    return { error: KEY_PARSE_ERRORS[algorithm] };
  }
  if (algorithm === 'ECDSA' && !GO_CURVES.has(key.asymmetricKeyDetails?.namedCurve ?? '')) return { error: 'x509: unsupported elliptic curve' };
  return { key, algorithm };
}
