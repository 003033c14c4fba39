/**
 * Service account issuer discovery (upstream's ServiceAccountIssuerDiscovery): the OpenID
 * provider configuration and the key set that let a party outside the cluster verify the tokens.
 * Documents are built once; their field order is upstream's (go-jose's for the keys).
 */
import type { VerifyingKey } from './signing-keys.js';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';

/** The configuration document for `issuer`, naming `jwksUri` and the algorithms the keys sign with. */
export function openIdConfiguration(issuer: string, jwksUri: string, keys: readonly VerifyingKey[]): Record<string, unknown> {
  return {
    issuer,
    jwks_uri: jwksUri,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...new Set(keys.map((k) => k.algorithm))].sort(),
  };
}

/** The public keys as a JSON Web Key Set, each for signature use, named by its key ID. */
export function jsonWebKeySet(keys: readonly VerifyingKey[]): { keys: Record<string, unknown>[] } {
  return {
    keys: keys.map((key) => {
      const jwk = key.publicKey.export({ format: 'jwk' });
      return jwk.kty === 'RSA'
        ? { use: 'sig', kty: 'RSA', kid: key.keyId, alg: key.algorithm, n: jwk.n, e: jwk.e }
        : { use: 'sig', kty: 'EC', kid: key.keyId, crv: jwk.crv, alg: key.algorithm, x: jwk.x, y: jwk.y };
    }),
  };
}

/** Whether discovery can be served for `issuer`: upstream serves it only for an https URL. */
export function discoverable(issuer: string): boolean {
  try {
    return new URL(issuer).protocol === 'https:';
  } catch {
    return false;
  }
}
