/**
 * Semantic checks of parsed options: combinations, ranges and files that must exist. Returns
 * every problem as a one-line message naming the flag; an empty list means the options are usable.
 * The serving flags' checks are in validate-serving.ts.
 */
import { IMPLEMENTED_AUTHORIZATION_MODES, PLANNED_AUTHORIZATION_MODES } from '../auth/authorizer.js';
import { validateAdmissionPluginLists } from '../admission/admission-plugins.js';
import { parseCidr } from '../server/cidr.js';
import { goQuote } from '../serialization/go-format.js';
import { versionInfo } from '../server/version.js';
import { validateAuditOptions } from './audit-options.js';
import { missingFiles } from './missing-files.js';
import type { AuthorizationOptions, OidcOptions, ServerOptions, ServiceAccountOptions } from './options.js';
import { validateServingOptions } from './validate-serving.js';

/** Upstream refuses Service ranges with more host bits than this (a /12 for IPv4, /108 for IPv6). */
const MAX_SERVICE_HOST_BITS = 20;

export function validateOptions(options: ServerOptions): string[] {
  return [
    ...validateServingOptions(options),
    ...validateLimits(options),
    ...validateAuthorization(options.authorization),
    ...validateServiceAccounts(options.authentication.serviceAccounts),
    ...validateOidc(options.authentication.oidc),
    ...(options.authentication.configFile !== undefined && options.authentication.oidc.issuerUrl !== undefined ? ['authentication-config file and oidc-* flags are mutually exclusive'] : []),
    ...missingFiles({ '--authentication-config': options.authentication.configFile }),
    ...validateAdmissionPluginLists(options.admission.enablePlugins, options.admission.disablePlugins),
    ...validateStore(options),
    ...validateServices(options),
    ...validateVersion(options.version.gitVersion),
    ...validateAuditOptions(options.audit),
    // component-base's field error: upstream also has "json", which Capstan does not write.
    ...(options.loggingFormat === 'text' ? [] : [`format: Invalid value: ${goQuote(options.loggingFormat)}: Unsupported log format`]),
    ...(options.dataDir === '' ? ['--data-dir must not be empty'] : []),
  ];
}

/**
 * Upstream's words for the limits and durations it refuses below zero (0 switches a limit off),
 * and for a GOAWAY chance outside 0..0.02. Upstream takes negative store timeouts and compaction
 * intervals, and then fails every health check or compacts without pause; Capstan refuses them
 * in the same words instead.
 */
function validateLimits(options: ServerOptions): string[] {
  const { limits, store } = options;
  const negative: Array<[string, number]> = [
    ['--max-requests-inflight', limits.maxRequestsInflight],
    ['--max-mutating-requests-inflight', limits.maxMutatingRequestsInflight],
    ['--request-timeout', limits.requestTimeoutMs],
    ['--min-request-timeout', limits.minRequestTimeoutSeconds],
    ['--shutdown-delay-duration', options.shutdownDelayMs],
    ['--store-healthcheck-timeout', store.healthcheckTimeoutMs],
    ['--store-readycheck-timeout', store.readycheckTimeoutMs],
    ['--store-compaction-interval', store.compactionIntervalMs],
  ];
  const errors = negative.filter(([, value]) => value < 0).map(([flag]) => `${flag} can not be negative value`);
  if (options.livezGracePeriodMs < 0) errors.push('--livez-grace-period can not be a negative value');
  // NaN passes, as upstream's comparisons let it (and then never sends GOAWAY).
  if (options.goawayChance < 0 || options.goawayChance > 0.02) errors.push('--goaway-chance can not be less than 0 or greater than 0.02');
  return errors;
}

function validateAuthorization(options: AuthorizationOptions): string[] {
  const { modes } = options;
  if (modes.length === 0) return ['--authorization-mode must name at least one mode'];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const mode of modes) {
    if (seen.has(mode)) errors.push(`--authorization-mode has mode ${mode} more than once`);
    seen.add(mode);
    if (IMPLEMENTED_AUTHORIZATION_MODES.includes(mode)) continue;
    const implemented = IMPLEMENTED_AUTHORIZATION_MODES.join(', ');
    errors.push(
      PLANNED_AUTHORIZATION_MODES.includes(mode)
        ? `--authorization-mode ${mode} is not implemented yet in Capstan (implemented: ${implemented})`
        : `--authorization-mode ${mode} is not a known authorization mode (implemented: ${implemented})`,
    );
  }
  return [...errors, ...validateModeFiles(options)];
}

/** Upstream's words for a mode without its file, and a file without its mode. */
function validateModeFiles(options: AuthorizationOptions): string[] {
  const errors: string[] = [];
  const abac = options.modes.includes('ABAC');
  if (abac && !options.policyFile) errors.push("authorization-mode ABAC's authorization policy file not passed");
  if (!abac && options.policyFile) errors.push('cannot specify --authorization-policy-file without mode ABAC');
  const webhook = options.modes.includes('Webhook');
  if (webhook && !options.webhook.configFile) errors.push("authorization-mode Webhook's authorization config file not passed");
  if (!webhook && options.webhook.configFile) errors.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  return errors;
}

/** Upstream's checks of the service account token options, in its words. */
function validateServiceAccounts(options: ServiceAccountOptions): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const issuer of options.issuers) {
    if (issuer === '') errors.push('service-account-issuer should not be an empty string');
    else if (seen.has(issuer)) errors.push(`service-account-issuer ${JSON.stringify(issuer)} is already specified`);
    else if (issuer.includes(':') && !URL.canParse(issuer)) errors.push(`service-account-issuer contained a ':' but was not a valid URL: ${JSON.stringify(issuer)}`);
    seen.add(issuer);
  }
  if (options.jwksUri !== undefined) {
    if (!URL.canParse(options.jwksUri)) errors.push(`service-account-jwks-uri must be a valid URL: ${JSON.stringify(options.jwksUri)}`);
    else if (new URL(options.jwksUri).protocol !== 'https:') errors.push(`service-account-jwks-uri requires https scheme, parsed as: ${options.jwksUri}`);
  }
  errors.push(...missingFiles({ '--service-account-signing-key-file': options.signingKeyFile }));
  for (const file of options.keyFiles) errors.push(...missingFiles({ '--service-account-key-file': file }));
  const max = options.maxTokenExpirationMs;
  if (max !== 0 && (max < 3_600_000 || max > 2 ** 32 * 1000)) errors.push('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  return errors;
}

const OIDC_SIGNING_ALGORITHMS = new Set(['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512']);

/** Upstream's checks of the --oidc-* options, in its words. */
function validateOidc(options: OidcOptions): string[] {
  const errors: string[] = [];
  if ((options.issuerUrl !== undefined) !== (options.clientId !== undefined)) errors.push('oidc-issuer-url and oidc-client-id must be specified together');
  if (options.issuerUrl !== undefined && (!URL.canParse(options.issuerUrl) || new URL(options.issuerUrl).protocol !== 'https:')) {
    errors.push(`oidc-issuer-url: URL scheme must be https, got ${JSON.stringify(options.issuerUrl)}`);
  }
  for (const algorithm of options.signingAlgorithms) {
    if (!OIDC_SIGNING_ALGORITHMS.has(algorithm)) errors.push(`oidc-signing-algs: unsupported signing algorithm ${JSON.stringify(algorithm)}`);
  }
  errors.push(...missingFiles({ '--oidc-ca-file': options.caFile }));
  return errors;
}

function validateStore(options: ServerOptions): string[] {
  const { store } = options;
  const errors: string[] = [];
  for (const server of store.servers) {
    if (!/^(https?|unix|unixs):\/\/[^/]+/.test(server)) errors.push(`--store-servers ${JSON.stringify(server)} is not of the form scheme://host:port`);
  }
  if (!store.prefix.startsWith('/')) errors.push(`--store-prefix ${JSON.stringify(store.prefix)} must start with /`);
  errors.push(...missingFiles({ '--store-cafile': store.caFile, '--store-certfile': store.certFile, '--store-keyfile': store.keyFile }));
  return errors;
}

function validateServices(options: ServerOptions): string[] {
  const ranges = options.services.clusterIpRanges;
  if (ranges.length === 0) return ['--service-cluster-ip-range must name a CIDR'];
  if (ranges.length > 2) return ['--service-cluster-ip-range takes at most two CIDRs (one per IP family)'];
  const cidrs = ranges.map(parseCidr);
  const errors: string[] = [];
  if (cidrs.length === 2 && cidrs[0]!.family === cidrs[1]!.family) {
    errors.push('--service-cluster-ip-range with two CIDRs needs one IPv4 and one IPv6 range');
  }
  cidrs.forEach((cidr, i) => {
    const hostBits = (cidr.family === 4 ? 32 : 128) - cidr.prefixLength;
    if (hostBits > MAX_SERVICE_HOST_BITS) {
      errors.push(`--service-cluster-ip-range ${ranges[i]} is too large; the mask must be >= ${(cidr.family === 4 ? 32 : 128) - MAX_SERVICE_HOST_BITS}`);
    }
    if (hostBits < 2) errors.push(`--service-cluster-ip-range ${ranges[i]} is too small to hold Service IPs`);
  });
  return errors;
}

function validateVersion(gitVersion: string): string[] {
  try {
    versionInfo(gitVersion);
    return [];
  } catch (err) {
    return [`--version: ${(err as Error).message}`];
  }
}
