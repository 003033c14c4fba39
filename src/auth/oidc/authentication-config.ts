/**
 * --authentication-config: an AuthenticationConfiguration (apiserver.config.k8s.io v1, v1beta1 or
 * v1alpha1, YAML or JSON) whose `jwt` list names issuers whose tokens authenticate, each read as
 * the OIDC flags are (oidc-authenticator.ts). Claim rules and mappings by claim name are honoured;
 * those written as CEL expressions are refused at startup, with the field named: Capstan has no
 * CEL evaluator yet.
 */
import { readFileSync } from 'node:fs';
import { decodeJsonOrYaml } from '../../serialization/json-or-yaml.js';
import { readTypeMeta } from '../../serialization/type-meta.js';
import type { OidcSettings } from './oidc-authenticator.js';
import { isPlainObject } from '../../util/plain-object.js';

const VERSIONS = new Set(['v1', 'v1beta1', 'v1alpha1']);
const GROUPS = new Set(['apiserver.config.k8s.io', 'apiserver.config.cluster.io']);

export interface JwtAuthenticatorConfig {
  readonly settings: OidcSettings;
  /** The issuer's CA bundle (`certificateAuthority`); none: the system's. */
  readonly caPem?: string;
}

type Json = Record<string, unknown>;

/** The file's JWT authenticators, in order. Throws with upstream's kind of message naming the file and the field. */
export function readAuthenticationConfig(path: string): JwtAuthenticatorConfig[] {
  const fail = (message: string): never => {
    throw new Error(`failed to load authentication configuration from file ${JSON.stringify(path)}: ${message}`);
  };
  let doc: unknown;
  try {
    doc = decodeJsonOrYaml(readFileSync(path, 'utf8'));
  } catch (err) {
    return fail((err as Error).message);
  }
  const { apiVersion, kind } = readTypeMeta(doc);
  const [group, version] = apiVersion.split('/');
  if (kind !== 'AuthenticationConfiguration' || !GROUPS.has(group ?? '') || !VERSIONS.has(version ?? '')) {
    return fail(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`);
  }
  const jwt = (doc as Json)['jwt'] ?? [];
  if (!Array.isArray(jwt)) return fail('jwt: Invalid value: must be a list');
  const errors: string[] = [];
  const seen = new Set<string>();
  const configs = jwt.map((entry, i) => jwtAuthenticator(isPlainObject(entry) ? entry : {}, `jwt[${i}]`, errors, seen));
  if (errors.length > 0) fail(errors.join(', '));
  return configs;
}

function jwtAuthenticator(entry: Json, at: string, errors: string[], seen: Set<string>): JwtAuthenticatorConfig {
  const issuer = objectAt(entry, 'issuer');
  const url = stringAt(issuer, 'url');
  if (url === '') errors.push(`${at}.issuer.url: Required value`);
  else if (!URL.canParse(url) || new URL(url).protocol !== 'https:') errors.push(`${at}.issuer.url: Invalid value: ${JSON.stringify(url)}: URL scheme must be https`);
  else if (seen.has(url)) errors.push(`${at}.issuer.url: Duplicate value: ${JSON.stringify(url)}`);
  seen.add(url);
  const audiences = Array.isArray(issuer['audiences']) ? issuer['audiences'].filter((a): a is string => typeof a === 'string' && a !== '') : [];
  if (audiences.length === 0) errors.push(`${at}.issuer.audiences: Required value: at least one issuer.audiences is required`);
  if (audiences.length > 1 && issuer['audienceMatchPolicy'] !== 'MatchAny') {
    errors.push(`${at}.issuer.audienceMatchPolicy: Invalid value: ${JSON.stringify(issuer['audienceMatchPolicy'] ?? '')}: audienceMatchPolicy must be MatchAny for multiple audiences`);
  }
  const requiredClaims: Record<string, string> = {};
  const rules = Array.isArray(entry['claimValidationRules']) ? entry['claimValidationRules'] : [];
  rules.forEach((rule, i) => {
    const r = isPlainObject(rule) ? rule : {};
    if (r['expression'] !== undefined) errors.push(unsupportedCel(`${at}.claimValidationRules[${i}].expression`));
    else requiredClaims[stringAt(r, 'claim')] = stringAt(r, 'requiredValue');
  });
  if (entry['userValidationRules'] !== undefined) errors.push(unsupportedCel(`${at}.userValidationRules`));
  const mappings = objectAt(entry, 'claimMappings');
  const username = objectAt(mappings, 'username');
  const groups = objectAt(mappings, 'groups');
  const uid = objectAt(mappings, 'uid');
  for (const [name, mapping] of [['username', username], ['groups', groups], ['uid', uid]] as const) {
    if (mapping['expression'] !== undefined) errors.push(unsupportedCel(`${at}.claimMappings.${name}.expression`));
  }
  if (mappings['extra'] !== undefined) errors.push(unsupportedCel(`${at}.claimMappings.extra`));
  const usernameClaim = stringAt(username, 'claim');
  if (usernameClaim === '' && username['expression'] === undefined) errors.push(`${at}.claimMappings.username: Required value: claim or expression is required`);
  if (usernameClaim !== '' && typeof username['prefix'] !== 'string') {
    errors.push(`${at}.claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing`);
  }
  const groupsClaim = stringAt(groups, 'claim');
  const caPem = stringAt(issuer, 'certificateAuthority');
  const discoveryUrl = stringAt(issuer, 'discoveryURL');
  const uidClaim = stringAt(uid, 'claim');
  return {
    settings: {
      issuerUrl: url,
      clientId: audiences[0] ?? '',
      extraAudiences: audiences.slice(1),
      ...(discoveryUrl !== '' ? { discoveryUrl } : {}),
      usernameClaim,
      // An explicit prefix, "" for none (the flags' '-').
      usernamePrefix: stringAt(username, 'prefix') === '' ? '-' : stringAt(username, 'prefix'),
      ...(groupsClaim !== '' ? { groupsClaim } : {}),
      groupsPrefix: stringAt(groups, 'prefix'),
      ...(uidClaim !== '' ? { uidClaim } : {}),
      requiredClaims,
      signingAlgorithms: ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'],
    },
    ...(caPem !== '' ? { caPem } : {}),
  };
}

function unsupportedCel(field: string): string {
  return `${field}: Unsupported value: CEL expressions are not supported by this server yet; use the claim forms`;
}

function objectAt(value: Json, key: string): Json {
  const v = value[key];
  return isPlainObject(v) ? v : {};
}

function stringAt(value: Json, key: string): string {
  const v = value[key];
  return typeof v === 'string' ? v : '';
}
