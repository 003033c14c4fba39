/**
 * Service account tokens, put together from the options: the signing key (--service-account-
 * signing-key-file, or one generated into the certificate directory on a first start, as the
 * serving certificates are), the verifying keys, the issuers and audiences; the TokenRequest
 * issuer, the token authenticator (which looks accounts and bound objects up in the registry),
 * and the issuer discovery documents.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { discoverable, jsonWebKeySet, openIdConfiguration, JWKS_PATH } from '../auth/service-account/issuer-discovery.js';
import { signingKeyFrom, verifyingKeysFrom, type SigningKey, type VerifyingKey } from '../auth/service-account/signing-keys.js';
import { ServiceAccountTokenAuthenticator, type UidLookup } from '../auth/service-account/token-authenticator.js';
import { TokenIssuer } from '../auth/service-account/token-issuer.js';
import { LegacyServiceAccountTokenAuthenticator } from '../auth/service-account/legacy-token.js';
import type { ServiceAccountRef } from '../auth/service-account/token-claims.js';
import type { TokenAuthenticator } from '../auth/bearer-token-authenticator.js';
import { apiAudiencesOf, DEFAULT_SERVICE_ACCOUNT_ISSUER, type ServiceAccountOptions } from '../cli/options.js';
import type { IssuerDocuments } from '../endpoints/issuer-discovery-routes.js';
import type { TokenRequests } from '../endpoints/subresources/token-request.js';
import { metaOf } from '../registry/object.js';
import { getIfExists } from '../registry/store/get-if-exists.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import { readIfExists, writeAtomic } from '../server/tls/pem-files.js';

/** The generated signing key's file in the certificate directory (kubeadm's name). */
export const GENERATED_SIGNING_KEY = 'sa.key';

export interface ServiceAccountTokens {
  readonly requests: TokenRequests;
  /** Bound tokens (TokenRequest's), then legacy ones (token Secrets'). */
  readonly authenticator: TokenAuthenticator & Required<Pick<TokenAuthenticator, 'authenticateTokenFor'>>;
  /** Signs the legacy token of a token Secret (the tokens controller writes it). */
  issueLegacyToken(account: ServiceAccountRef, secretName: string): Promise<string>;
  /** Whether issuer discovery is served: the signing issuer is an https URL. */
  readonly discoverable: boolean;
  /** The issuer discovery documents for a server reached at `serverAddress`. */
  discovery(serverAddress: string): IssuerDocuments;
}

/** The stores whose objects a token names (undefined until the registry runs: tokens then fail lookup). */
export type TokenObjectStores = (resource: 'serviceaccounts' | 'pods' | 'secrets' | 'nodes') => ResourceStore | undefined;

export async function loadServiceAccountTokens(
  options: ServiceAccountOptions,
  certDir: string,
  stores: TokenObjectStores,
  log: (message: string) => void,
): Promise<ServiceAccountTokens> {
  const signing = await signingKey(options.signingKeyFile, certDir);
  const keys = uniqueKeys([signing, ...(await Promise.all(options.keyFiles.map(async (f) => verifyingKeysFrom(await readFile(f, 'utf8'), f)))).flat()]);
  const issuers = options.issuers.length > 0 ? options.issuers : [DEFAULT_SERVICE_ACCOUNT_ISSUER];
  const audiences = apiAudiencesOf(options);
  const uidIn = (resource: Parameters<TokenObjectStores>[0]): UidLookup => (namespace, name) => uidOf(stores(resource), namespace, name);
  const bound = new ServiceAccountTokenAuthenticator({
    issuers,
    keys,
    audiences,
    ...(options.lookup ? { lookup: { serviceAccount: uidIn('serviceaccounts'), pod: uidIn('pods'), secret: uidIn('secrets'), node: uidIn('nodes') } } : {}),
    log,
  });
  const legacy = new LegacyServiceAccountTokenAuthenticator({
    keys,
    audiences,
    ...(options.lookup ? { lookup: { serviceAccount: uidIn('serviceaccounts'), secretToken: (namespace, name) => secretToken(stores('secrets'), namespace, name) } } : {}),
    log,
  });
  const issuer = issuers[0]!;
  const tokenIssuer = new TokenIssuer(issuer, signing);
  return {
    requests: { issuer: tokenIssuer, audiences, maxExpirationSeconds: Math.floor(options.maxTokenExpirationMs / 1000) },
    authenticator: {
      authenticateToken: async (token) => (await bound.authenticateToken(token)) ?? legacy.authenticateToken(token),
      authenticateTokenFor: async (token, wanted) => (await bound.authenticateTokenFor(token, wanted)) ?? legacy.authenticateTokenFor(token, wanted),
    },
    issueLegacyToken: (account, secretName) => tokenIssuer.issueLegacy(account, secretName),
    discoverable: discoverable(issuer),
    discovery: (serverAddress) => {
      const jwksUri = options.jwksUri ?? `https://${serverAddress}${JWKS_PATH}`;
      return { configuration: openIdConfiguration(issuer, jwksUri, keys), keySet: jsonWebKeySet(keys) };
    },
  };
}

/** The given signing key, else the generated one (made on a first start: an ECDSA P-256 key, which takes no time). */
async function signingKey(file: string | undefined, certDir: string): Promise<SigningKey> {
  if (file !== undefined) return signingKeyFrom(await readFile(file, 'utf8'), file);
  const path = join(certDir, GENERATED_SIGNING_KEY);
  let pem = await readIfExists(path);
  if (pem === undefined) {
    pem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    await writeAtomic(path, pem, true);
  }
  return signingKeyFrom(pem, path);
}

/** Each key once (a key file may repeat the signing key), in order. */
function uniqueKeys(keys: readonly VerifyingKey[]): VerifyingKey[] {
  const seen = new Set<string>();
  return keys.filter((k) => !seen.has(k.keyId) && seen.add(k.keyId));
}

/** The token a Secret holds now (its data.token, decoded), undefined when there is no such Secret. */
async function secretToken(store: ResourceStore | undefined, namespace: string, name: string): Promise<string | undefined> {
  const secret = store && (await getIfExists(store, namespace, name));
  if (secret === undefined || metaOf(secret).deletionTimestamp) return undefined;
  const encoded = ((secret['data'] ?? {}) as Record<string, unknown>)['token'];
  return typeof encoded === 'string' ? Buffer.from(encoded, 'base64').toString('utf8') : '';
}

async function uidOf(store: ResourceStore | undefined, namespace: string, name: string): Promise<string | undefined> {
  const object = store && (await getIfExists(store, namespace, name));
  return object && metaOf(object).uid;
}
