/**
 * Checks of the serving flags, in upstream's words where upstream has them: the port and the
 * certificate files, TLS versions and cipher suites, HSTS directives and CORS origins.
 */
import { createSecureContext } from 'node:tls';
import { originPatternProblem } from '../server/cors-origins.js';
import { opensslCipherList, TLS_VERSIONS, unknownCipherSuite } from '../server/tls/go-tls-names.js';
import { goQuote } from '../serialization/go-format.js';
import { goAggregate } from '../util/go-aggregate.js';
import { missingFiles } from './missing-files.js';
import type { ServerOptions } from './options.js';

/** The serving flags' problems: port, certificate files, TLS versions and suites, HSTS, CORS. */
export function validateServingOptions(options: ServerOptions): string[] {
  const errors: string[] = [];
  const { secureServing: s, authentication } = options;
  if (s.port < 0 || s.port > 65535) errors.push(`--secure-port ${s.port} must be between 0 and 65535, inclusive (0 picks a free port)`);
  if (Boolean(s.tlsCertFile) !== Boolean(s.tlsPrivateKeyFile)) {
    errors.push('--tls-cert-file and --tls-private-key-file must be given together');
  }
  errors.push(...missingFiles({ '--tls-cert-file': s.tlsCertFile, '--tls-private-key-file': s.tlsPrivateKeyFile, '--client-ca-file': authentication.clientCaFile, '--authentication-token-webhook-config-file': authentication.tokenWebhook.configFile, '--requestheader-client-ca-file': authentication.requestHeader.clientCaFile }));
  errors.push(...validateTlsChoices(s.tlsMinVersion, s.tlsCipherSuites));
  errors.push(...validateHstsDirectives(options.hstsDirectives));
  errors.push(...validateCorsAllowedOrigins(options.corsAllowedOrigins));
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
  return goAggregate(errors);
}

const CORS_HELP = 'each value is a Go regular expression matched anywhere in the Origin header; pin the host '
  + "at its start with '^' or the '//' before it, and at its end with '$' or the ':' before a port, "
  + "e.g. '//example\\.com(:|$)' or '^https://example\\.com(:|$)'";

/** Upstream's check of --cors-allowed-origins (its words, then Capstan's help), aggregated as upstream's. */
function validateCorsAllowedOrigins(patterns: readonly string[]): string[] {
  return goAggregate(patterns.flatMap((pattern) => {
    if (pattern === '') return [`empty value in --cors-allowed-origins, help: ${CORS_HELP}`];
    const problem = originPatternProblem(pattern);
    return problem === undefined ? [] : [`--cors-allowed-origins has an invalid regular expression: ${problem}, help: ${CORS_HELP}`];
  }));
}
