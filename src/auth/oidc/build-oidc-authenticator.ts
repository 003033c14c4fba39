/** The JWT (OIDC) authenticators from --authentication-config or the --oidc-* options. */
import { readFileSync } from 'node:fs';
import { httpsJsonFetcher } from '../../client/https-json.js';
import type { OidcOptions } from '../../cli/options.js';
import { readAuthenticationConfig } from './authentication-config.js';
import { OidcAuthenticator } from './oidc-authenticator.js';

/** --authentication-config's issuers when given, else the --oidc-* flags' one (if any); in order. */
export function jwtAuthenticators(configFile: string | undefined, flags: OidcOptions, log: (message: string) => void): OidcAuthenticator[] {
  if (configFile === undefined) {
    const one = oidcAuthenticator(flags, log);
    return one ? [one] : [];
  }
  return readAuthenticationConfig(configFile).map(({ settings, caPem }) => new OidcAuthenticator(settings, httpsJsonFetcher(caPem), log));
}

function oidcAuthenticator(options: OidcOptions, log: (message: string) => void): OidcAuthenticator | undefined {
  if (options.issuerUrl === undefined || options.clientId === undefined) return undefined;
  const caPem = options.caFile === undefined ? undefined : readFileSync(options.caFile, 'utf8');
  const { issuerUrl, clientId, caFile: _file, ...claims } = options;
  return new OidcAuthenticator({ issuerUrl, clientId, ...claims }, httpsJsonFetcher(caPem), log);
}
