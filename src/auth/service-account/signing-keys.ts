/**
 * The keys service account tokens are signed and verified with: a private key that signs (PEM,
 * RSA or ECDSA) and the public keys that verify (PEM public keys, private keys or certificates),
 * each with upstream's key ID, so that a token's `kid` header names the key that checks it.
 */
import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';

/** The JWS algorithms upstream signs with: RS256 for RSA keys, ES256/384/512 by the curve. */
export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export interface VerifyingKey {
  readonly publicKey: KeyObject;
  readonly keyId: string;
  readonly algorithm: SigningAlgorithm;
}

export interface SigningKey extends VerifyingKey {
  readonly privateKey: KeyObject;
}

/** The key of a PEM private key, which signs. Throws when the text holds no usable private key. */
export function signingKeyFrom(pem: string, source: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (err) {
    throw new Error(`failed to parse service account signing key ${source}: ${(err as Error).message}`);
  }
  const publicKey = createPublicKey(privateKey);
  return { privateKey, ...verifyingKey(publicKey, source) };
}

/**
 * Every public key of a PEM file, as upstream's ParsePublicKeysPEM reads it: public keys, the
 * public halves of private keys, and the keys of certificates, in order. Throws when none is found.
 */
export function verifyingKeysFrom(pem: string, source: string): VerifyingKey[] {
  const blocks = pem.match(/-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----/g) ?? [];
  const keys: VerifyingKey[] = [];
  for (const block of blocks) {
    const label = /-----BEGIN ([A-Z ]+)-----/.exec(block)![1]!;
    try {
      if (label === 'CERTIFICATE') keys.push(verifyingKey(new X509Certificate(block).publicKey, source));
      else if (label.endsWith('PRIVATE KEY')) keys.push(verifyingKey(createPublicKey(createPrivateKey(block)), source));
      else if (label.endsWith('PUBLIC KEY')) keys.push(verifyingKey(createPublicKey(block), source));
    } catch (err) {
      throw new Error(`error reading public key file ${source}: ${(err as Error).message}`);
    }
  }
  if (keys.length === 0) throw new Error(`error reading public key file ${source}: data does not contain any valid RSA or ECDSA public keys`);
  return keys;
}

function verifyingKey(publicKey: KeyObject, source: string): VerifyingKey {
  return { publicKey, keyId: keyIdOf(publicKey), algorithm: algorithmOf(publicKey, source) };
}

/** Upstream's key ID: the SHA-256 of the key's PKIX (SubjectPublicKeyInfo) DER, base64url without padding. */
function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

function algorithmOf(key: KeyObject, source: string): SigningAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    switch (key.asymmetricKeyDetails?.namedCurve) {
      case 'prime256v1':
        return 'ES256';
      case 'secp384r1':
        return 'ES384';
      case 'secp521r1':
        return 'ES512';
    }
  }
  throw new Error(`${source}: unsupported key type ${key.asymmetricKeyType ?? 'unknown'}; service account keys are RSA or ECDSA (P-256, P-384, P-521)`);
}
