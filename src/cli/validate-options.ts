/**
 * Semantic checks of parsed options: combinations, ranges and files that must exist. Returns
 * every problem as a one-line message naming the flag; an empty list means the options are usable.
 */
import { existsSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { IMPLEMENTED_AUTHORIZATION_MODES, PLANNED_AUTHORIZATION_MODES } from '../auth/authorizer.js';
import { parseCidr } from '../server/cidr.js';
import { originPatternProblem } from '../server/cors-origins.js';
import { opensslCipherList, TLS_VERSIONS, unknownCipherSuite } from '../server/tls/go-tls-names.js';
import { goQuote } from '../serialization/go-format.js';
import { versionInfo } from '../server/version.js';
import type { ServerOptions } from './options.js';

/** Upstream refuses Service ranges with more host bits than this (a /12 for IPv4, /108 for IPv6). */
const MAX_SERVICE_HOST_BITS = 20;

export function validateOptions(options: ServerOptions): string[] {
  return [
    ...validateServing(options),
    ...validateHstsDirectives(options.hstsDirectives),
    ...validateCorsAllowedOrigins(options.corsAllowedOrigins),
    ...validateLimits(options),
    ...validateAuthorization(options.authorization.modes),
    ...validateStore(options),
    ...validateServices(options),
    ...validateVersion(options.version.gitVersion),
    // component-base's field error: upstream also has "json", which Capstan does not write.
    ...(options.loggingFormat === 'text' ? [] : [`format: Invalid value: ${goQuote(options.loggingFormat)}: Unsupported log format`]),
    ...(options.dataDir === '' ? ['--data-dir must not be empty'] : []),
  ];
}

function validateServing(options: ServerOptions): string[] {
  const errors: string[] = [];
  const { secureServing: s, authentication } = options;
  if (s.port < 0 || s.port > 65535) errors.push(`--secure-port ${s.port} must be between 0 and 65535, inclusive (0 picks a free port)`);
  if (Boolean(s.tlsCertFile) !== Boolean(s.tlsPrivateKeyFile)) {
    errors.push('--tls-cert-file and --tls-private-key-file must be given together');
  }
  errors.push(...missingFiles({ '--tls-cert-file': s.tlsCertFile, '--tls-private-key-file': s.tlsPrivateKeyFile, '--client-ca-file': authentication.clientCaFile }));
  errors.push(...validateTlsChoices(s.tlsMinVersion, s.tlsCipherSuites));
  return errors;
}

/** Upstream's words for names Go does not know; Capstan's for suites this OpenSSL cannot serve (RC4). */
function validateTlsChoices(minVersion: string | undefined, cipherSuites: readonly string[]): string[] {
  const errors: string[] = [];
  if (minVersion !== undefined && !Object.hasOwn(TLS_VERSIONS, minVersion)) errors.push(`unknown tls version ${goQuote(minVersion)}`);
  const unknown = unknownCipherSuite(cipherSuites);
  if (unknown !== undefined) errors.push(`Cipher suite ${unknown} not supported or doesn't exist`);
  else if (cipherSuites.length > 0) {
    try {
      createSecureContext({ ciphers: opensslCipherList(cipherSuites) });
    } catch (err) {
      errors.push(`--tls-cipher-suites: OpenSSL here serves none of ${cipherSuites.join(', ')} (${(err as Error).message})`);
    }
  }
  return errors;
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
  // NaN passes, as upstream's comparisons let it (and then never sends GOAWAY).
  if (options.goawayChance < 0 || options.goawayChance > 0.02) errors.push('--goaway-chance can not be less than 0 or greater than 0.02');
  return errors;
}

/**
 * Upstream's check of the HSTS directives: each is includeSubDomains, preload or max-age=<anything>
 * (RFC 6797, section 6.1).
 */
function validateHstsDirectives(directives: readonly string[]): string[] {
  const errors: string[] = [];
  for (const directive of directives) {
    if (directive.trim() === '') errors.push('empty value in strict-transport-security-directives');
    else if (directive !== 'includeSubDomains' && directive !== 'preload' && !/^max-age=[^=]*$/.test(directive)) {
      errors.push('--strict-transport-security-directives invalid, allowed values: max-age=expireTime, includeSubDomains, preload. see https://tools.ietf.org/html/rfc6797#section-6.1 for more information');
    }
  }
  return aggregated(errors);
}

const CORS_HELP = 'each value is a Go regular expression matched anywhere in the Origin header; pin the host '
  + "at its start with '^' or the '//' before it, and at its end with '$' or the ':' before a port, "
  + "e.g. '//example\\.com(:|$)' or '^https://example\\.com(:|$)'";

/** Upstream's check of --cors-allowed-origins (its words, then Capstan's help), aggregated as upstream's. */
function validateCorsAllowedOrigins(patterns: readonly string[]): string[] {
  return aggregated(patterns.flatMap((pattern) => {
    if (pattern === '') return [`empty value in --cors-allowed-origins, help: ${CORS_HELP}`];
    const problem = originPatternProblem(pattern);
    return problem === undefined ? [] : [`--cors-allowed-origins has an invalid regular expression: ${problem}, help: ${CORS_HELP}`];
  }));
}

/**
 * Errors as one line, as Go's aggregate error prints them: the message itself when there is one
 * distinct message, else the distinct messages in brackets, separated by ", ".
 */
function aggregated(errors: readonly string[]): string[] {
  const distinct = [...new Set(errors)];
  return distinct.length <= 1 ? distinct : [`[${distinct.join(', ')}]`];
}

function validateAuthorization(modes: readonly string[]): string[] {
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

function missingFiles(files: Record<string, string | undefined>): string[] {
  return Object.entries(files)
    .filter(([, path]) => path !== undefined && !existsSync(path))
    .map(([flag, path]) => `${flag} ${path}: no such file`);
}
