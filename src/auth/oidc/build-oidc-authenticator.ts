/** The OIDC authenticator from the --oidc-* options; undefined without an issuer. */
import { readFileSync } from 'node:fs';
import { httpsJsonFetcher } from '../../client/https-json.js';
import type { OidcOptions } from '../../cli/options.js';
import { OidcAuthenticator } from './oidc-authenticator.js';

export function oidcAuthenticator(options: OidcOptions, log: (message: string) => void): OidcAuthenticator | undefined {
  if (options.issuerUrl === undefined || options.clientId === undefined) return undefined;
  const caPem = options.caFile === undefined ? undefined : readFileSync(options.caFile, 'utf8');
  const { issuerUrl, clientId, caFile: _file, ...claims } = options;
  return new OidcAuthenticator({ issuerUrl, clientId, ...claims }, httpsJsonFetcher(caPem), log);
}
