/** Checks of a service account JWT shared by the bound and the legacy token authenticators. */
import { decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { VerifyingKey } from './signing-keys.js';

/** Go's jwt.DefaultLeeway, which upstream's validation allows on exp, nbf and iat. */
const CLOCK_LEEWAY_SECONDS = 60;

/**
 * The payload of `token` once one of `keys` (the one its `kid` names, else each in turn) verifies
 * its signature and the issuer, audience and times hold (a minute's leeway); throws otherwise.
 */
export async function verifyToken(token: string, keys: readonly VerifyingKey[], expect: { issuer: string[]; audience?: string[] }): Promise<JWTPayload> {
  const { kid } = decodeProtectedHeader(token);
  const candidates = kid === undefined ? keys : keys.filter((k) => k.keyId === kid);
  let lastError: unknown = new Error(`no key with ID ${JSON.stringify(kid)} verifies service account tokens`);
  for (const key of candidates) {
    try {
      const { payload } = await jwtVerify(token, key.publicKey, { algorithms: [key.algorithm], ...expect, clockTolerance: CLOCK_LEEWAY_SECONDS });
      return payload;
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

/** Whether `token` is a JWT whose `iss` is one of `issuers` (without verifying anything). */
export function issuedBy(token: string, issuers: readonly string[]): boolean {
  if (token.split('.').length !== 3) return false;
  try {
    const iss = decodeJwt(token).iss;
    return iss !== undefined && issuers.includes(iss);
  } catch {
    return false;
  }
}
