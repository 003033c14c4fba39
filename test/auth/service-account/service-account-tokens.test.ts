/**
 * Service account tokens without a server (src/auth/service-account): upstream's key IDs, the keys
 * read from PEM files, the claims a token carries, and what the authenticator accepts: a token of
 * one of its issuers, signed by one of its keys, for one of its audiences, in time, whose account
 * (and bound object) still exists with the UID it names.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { signingKeyFrom, verifyingKeysFrom } from '../../../src/auth/service-account/signing-keys.js';
import { ServiceAccountTokenAuthenticator, type UidLookup } from '../../../src/auth/service-account/token-authenticator.js';
import { TokenIssuer } from '../../../src/auth/service-account/token-issuer.js';
import { jsonWebKeySet, openIdConfiguration } from '../../../src/auth/service-account/issuer-discovery.js';
import { LegacyServiceAccountTokenAuthenticator } from '../../../src/auth/service-account/legacy-token.js';

const ISSUER = 'https://issuer.example';
const ecPem = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const rsaPem = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
const SA = { namespace: 'ns', name: 'robot', uid: 'sa-uid' };

function lookups(objects: Record<string, string>): { serviceAccount: UidLookup; pod: UidLookup; secret: UidLookup; node: UidLookup } {
  const find = (kind: string): UidLookup => async (namespace, name) => objects[`${kind}/${namespace}/${name}`];
  return { serviceAccount: find('sa'), pod: find('pod'), secret: find('secret'), node: find('node') };
}

describe('service account signing keys', () => {
  it('names a key by the SHA-256 of its SubjectPublicKeyInfo, base64url without padding', () => {
    const key = signingKeyFrom(ecPem(), 'sa.key');
    const der = key.publicKey.export({ type: 'spki', format: 'der' });
    assert.equal(key.keyId, createHash('sha256').update(der).digest('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
    assert.equal(key.algorithm, 'ES256');
    assert.equal(signingKeyFrom(rsaPem(), 'rsa.key').algorithm, 'RS256');
  });

  it('reads every public key of a file: public keys, private keys and certificates', () => {
    const signing = signingKeyFrom(ecPem(), 'a');
    const publicPem = signing.publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const keys = verifyingKeysFrom(`${publicPem}\n${rsaPem()}`, 'keys.pem');
    assert.deepEqual(keys.map((k) => k.algorithm), ['ES256', 'RS256']);
    assert.equal(keys[0]!.keyId, signing.keyId);
    assert.throws(() => verifyingKeysFrom('nothing here', 'empty.pem'), /data does not contain any valid RSA or ECDSA public keys/);
    assert.throws(() => signingKeyFrom('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n', 'bad.key'), /failed to parse service account signing key bad.key/);
  });

  it('publishes the keys as a JSON Web Key Set and names their algorithms in the configuration', () => {
    const ec = signingKeyFrom(ecPem(), 'ec');
    const rsa = signingKeyFrom(rsaPem(), 'rsa');
    const set = jsonWebKeySet([ec, rsa]);
    assert.deepEqual(Object.keys(set.keys[0]!), ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
    assert.deepEqual(Object.keys(set.keys[1]!), ['use', 'kty', 'kid', 'alg', 'n', 'e']);
    assert.equal(set.keys[1]!['e'], 'AQAB');
    assert.deepEqual(openIdConfiguration(ISSUER, `${ISSUER}/openid/v1/jwks`, [rsa, ec]), {
      issuer: ISSUER,
      jwks_uri: `${ISSUER}/openid/v1/jwks`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256', 'RS256'],
    });
  });
});

describe('service account tokens', () => {
  const key = signingKeyFrom(ecPem(), 'sa.key');
  const issuer = new TokenIssuer(ISSUER, key);
  const authenticator = (settings: Partial<ConstructorParameters<typeof ServiceAccountTokenAuthenticator>[0]> = {}) =>
    new ServiceAccountTokenAuthenticator({ issuers: [ISSUER], keys: [key], audiences: ['api'], lookup: lookups({ 'sa/ns/robot': 'sa-uid', 'pod/ns/p': 'pod-uid' }), ...settings });

  it('carries upstream\'s claims, sorted, with the key\'s ID in the header', async () => {
    const { token, expiresAt } = await issuer.issue({ serviceAccount: SA, boundTo: { kind: 'Pod', name: 'p', uid: 'pod-uid' }, audiences: ['api'], expirationSeconds: 600 }, 1_700_000_000_500);
    assert.deepEqual(decodeProtectedHeader(token), { alg: 'ES256', kid: key.keyId });
    const claims = decodeJwt(token);
    assert.deepEqual(Object.keys(claims), ['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
    assert.deepEqual({ ...claims, jti: undefined }, {
      aud: ['api'], exp: 1_700_000_600, iat: 1_700_000_000, iss: ISSUER, jti: undefined, nbf: 1_700_000_000, sub: 'system:serviceaccount:ns:robot',
      'kubernetes.io': { namespace: 'ns', pod: { name: 'p', uid: 'pod-uid' }, serviceaccount: { name: 'robot', uid: 'sa-uid' } },
    });
    assert.equal(expiresAt, 1_700_000_600_000);
  });

  it('authenticate as the service account, with its groups, the bound pod and the token\'s ID as extra', async () => {
    const { token } = await issuer.issue({ serviceAccount: SA, boundTo: { kind: 'Pod', name: 'p', uid: 'pod-uid' }, audiences: ['other', 'api'], expirationSeconds: 600 });
    const user = await authenticator().authenticateToken(token);
    assert.equal(user?.name, 'system:serviceaccount:ns:robot');
    assert.equal(user?.uid, 'sa-uid');
    assert.deepEqual(user?.groups, ['system:serviceaccounts', 'system:serviceaccounts:ns']);
    assert.deepEqual(user?.extra?.['authentication.kubernetes.io/pod-name'], ['p']);
    assert.match(user?.extra?.['authentication.kubernetes.io/credential-id']?.[0] ?? '', /^JTI=[0-9a-f-]{36}$/);
  });

  it('are refused when expired, for another audience, tampered with, or signed by another key', async () => {
    const rejected: string[] = [];
    const auth = authenticator({ log: (m) => rejected.push(m) });
    const expired = (await issuer.issue({ serviceAccount: SA, audiences: ['api'], expirationSeconds: 600 }, Date.now() - 3_600_000)).token;
    const elsewhere = (await issuer.issue({ serviceAccount: SA, audiences: ['other'], expirationSeconds: 600 })).token;
    const good = (await issuer.issue({ serviceAccount: SA, audiences: ['api'], expirationSeconds: 600 })).token;
    const [head, , signature] = good.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...decodeJwt(good), sub: 'x' })).toString('base64url')}.${signature}`;
    const stranger = (await new TokenIssuer(ISSUER, signingKeyFrom(ecPem(), 'other')).issue({ serviceAccount: SA, audiences: ['api'], expirationSeconds: 600 })).token;
    for (const token of [expired, elsewhere, forged, stranger]) assert.equal(await auth.authenticateToken(token), undefined);
    assert.equal(rejected.length, 4);
    assert.match(rejected[0]!, /exp/);
  });

  it('leave a token of another issuer, or no JWT at all, to the other authenticators without complaint', async () => {
    const rejected: string[] = [];
    const auth = authenticator({ log: (m) => rejected.push(m) });
    const foreign = (await new TokenIssuer('https://elsewhere', key).issue({ serviceAccount: SA, audiences: ['api'], expirationSeconds: 600 })).token;
    assert.equal(await auth.authenticateToken(foreign), undefined);
    assert.equal(await auth.authenticateToken('static-token'), undefined);
    assert.deepEqual(rejected, []);
  });

  it('stop working once the account or the bound object is gone or was replaced', async () => {
    const rejected: string[] = [];
    const token = (await issuer.issue({ serviceAccount: SA, boundTo: { kind: 'Pod', name: 'p', uid: 'pod-uid' }, audiences: ['api'], expirationSeconds: 600 })).token;
    const log = (m: string) => rejected.push(m);
    assert.equal(await authenticator({ lookup: lookups({ 'pod/ns/p': 'pod-uid' }), log }).authenticateToken(token), undefined);
    assert.equal(await authenticator({ lookup: lookups({ 'sa/ns/robot': 'new-uid', 'pod/ns/p': 'pod-uid' }), log }).authenticateToken(token), undefined);
    assert.equal(await authenticator({ lookup: lookups({ 'sa/ns/robot': 'sa-uid' }), log }).authenticateToken(token), undefined);
    assert.deepEqual(rejected.map((m) => m.replace('service account token rejected: ', '')), [
      'service account ns/robot has been deleted',
      'service account UID (new-uid) does not match claim (sa-uid)',
      'pod ns/p has been deleted',
    ]);
    // Without lookup (--service-account-lookup=false) the signature and times are all that count.
    const withoutLookup = new ServiceAccountTokenAuthenticator({ issuers: [ISSUER], keys: [key], audiences: ['api'] });
    assert.equal((await withoutLookup.authenticateToken(token))?.name, 'system:serviceaccount:ns:robot');
  });
});

describe('legacy service account tokens', () => {
  const key = signingKeyFrom(ecPem(), 'sa.key');
  const issuer = new TokenIssuer(ISSUER, key);

  it('are valid while their Secret holds them and the account has the UID they name', async () => {
    const token = await issuer.issueLegacy(SA, 'robot-token');
    assert.equal(decodeJwt(token).exp, undefined, 'no expiry');
    const rejected: string[] = [];
    const auth = (secretToken: string | undefined, uid: string | undefined) =>
      new LegacyServiceAccountTokenAuthenticator({
        keys: [key],
        audiences: ['api'],
        lookup: { serviceAccount: async () => uid, secretToken: async () => secretToken },
        log: (m) => rejected.push(m.replace('legacy service account token rejected: ', '')),
      });
    assert.equal((await auth(token, 'sa-uid').authenticateToken(token))?.name, 'system:serviceaccount:ns:robot');
    assert.equal(await auth('another', 'sa-uid').authenticateToken(token), undefined);
    assert.equal(await auth(undefined, 'sa-uid').authenticateToken(token), undefined);
    assert.equal(await auth(token, 'new-uid').authenticateToken(token), undefined);
    assert.deepEqual(rejected, [
      'token does not match the one in secret ns/robot-token',
      'secret ns/robot-token has been deleted',
      'service account UID (new-uid) does not match claim (sa-uid)',
    ]);
    // A bound token is not a legacy one, and the other way round.
    const bound = (await issuer.issue({ serviceAccount: SA, audiences: ['api'], expirationSeconds: 600 })).token;
    assert.equal(await auth(bound, 'sa-uid').authenticateToken(bound), undefined);
  });
});
