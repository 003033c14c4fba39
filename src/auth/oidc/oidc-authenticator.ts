/**
 * OpenID Connect ID tokens (--oidc-*), as upstream's OIDC authenticator takes them: a JWT whose
 * `iss` is --oidc-issuer-url, signed with one of the issuer's keys (found through its discovery
 * document, fetched again when a token names a key not yet known), by an allowed algorithm, for
 * the audience --oidc-client-id, in time, and carrying every --oidc-required-claim. The user name is
 * the --oidc-username-claim (an `email` only when `email_verified` is not false), prefixed as
 * --oidc-username-prefix says; the groups come from --oidc-groups-claim, a string or a list.
 */
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { TokenAuthenticator } from '../bearer-token-authenticator.js';
import type { UserInfo } from '../user-info.js';

/** Go's jwt leeway upstream allows on exp and nbf. */
const CLOCK_LEEWAY_SECONDS = 60;

export interface OidcSettings {
  readonly issuerUrl: string;
  /** The audience a token must have (--oidc-client-id). */
  readonly clientId: string;
  /** More audiences, any of which will do (--authentication-config's `audiences`). */
  readonly extraAudiences?: readonly string[];
  /** Where the discovery document is, when not under the issuer URL (--authentication-config). */
  readonly discoveryUrl?: string;
  readonly uidClaim?: string;
  readonly usernameClaim: string;
  /** undefined: upstream's default (the issuer URL and '#' for claims other than email). */
  readonly usernamePrefix?: string;
  readonly groupsClaim?: string;
  readonly groupsPrefix: string;
  readonly requiredClaims: Readonly<Record<string, string>>;
  readonly signingAlgorithms: readonly string[];
}

/** GETs a JSON document over HTTPS (trusting --oidc-ca-file); rejects on failure. */
export type JsonFetcher = (url: string) => Promise<unknown>;

export class OidcAuthenticator implements TokenAuthenticator {
  private keys: ReturnType<typeof createLocalJWKSet> | undefined;
  /** The fetch under way: tokens arriving meanwhile wait for it rather than fetch again (as go-oidc's key set). */
  private fetching: Promise<void> | undefined;

  constructor(
    private readonly settings: OidcSettings,
    private readonly fetchJson: JsonFetcher,
    private readonly log: (message: string) => void,
  ) {}

  /** Fetches the keys now (at startup), so that the first token does not wait; failures are retried on use. */
  warmUp(): void {
    void this.refreshKeys().catch((err: Error) => this.log(`oidc authenticator: initializing plugin: ${err.message}`));
  }

  async authenticateToken(token: string): Promise<UserInfo | undefined> {
    if (!this.isOurs(token)) return undefined;
    try {
      const payload = await this.verify(token);
      return this.userOf(payload);
    } catch (err) {
      this.log(`oidc: verify token: ${(err as Error).message}`);
      return undefined;
    }
  }

  private isOurs(token: string): boolean {
    if (token.split('.').length !== 3) return false;
    try {
      return decodeJwt(token).iss === this.settings.issuerUrl;
    } catch {
      return false;
    }
  }

  private async verify(token: string): Promise<JWTPayload> {
    const options = {
      issuer: this.settings.issuerUrl,
      audience: [this.settings.clientId, ...(this.settings.extraAudiences ?? [])],
      algorithms: [...this.settings.signingAlgorithms],
      clockTolerance: CLOCK_LEEWAY_SECONDS,
    };
    if (this.keys === undefined) await this.refreshKeys();
    try {
      return (await jwtVerify(token, this.keys!, options)).payload;
    } catch (err) {
      // A key the issuer has rotated in since the last fetch: fetch again.
      if ((err as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw err;
      await this.refreshKeys();
      return (await jwtVerify(token, this.keys!, options)).payload;
    }
  }

  /** Discovery document, then its key set; one fetch at a time. */
  private refreshKeys(): Promise<void> {
    this.fetching ??= (async () => {
      try {
        const discoveryUrl = this.settings.discoveryUrl ?? `${this.settings.issuerUrl.replace(/\/$/, '')}/.well-known/openid-configuration`;
        const discovery = (await this.fetchJson(discoveryUrl)) as { issuer?: unknown; jwks_uri?: unknown };
        if (discovery.issuer !== this.settings.issuerUrl) {
          throw new Error(`oidc: issuer did not match the issuer returned by provider, expected "${this.settings.issuerUrl}" got "${String(discovery.issuer)}"`);
        }
        if (typeof discovery.jwks_uri !== 'string') throw new Error('oidc: discovery document has no jwks_uri');
        this.keys = createLocalJWKSet((await this.fetchJson(discovery.jwks_uri)) as JSONWebKeySet);
      } finally {
        this.fetching = undefined;
      }
    })();
    return this.fetching;
  }

  private userOf(payload: JWTPayload): UserInfo {
    const s = this.settings;
    for (const [claim, wanted] of Object.entries(s.requiredClaims)) {
      if (payload[claim] !== wanted) throw new Error(`oidc: required claim ${claim} value does not match. Got = ${JSON.stringify(payload[claim])}, want = ${wanted}`);
    }
    const name = payload[s.usernameClaim];
    if (typeof name !== 'string') throw new Error(`oidc: parse username claims "${s.usernameClaim}": claim not present`);
    if (s.usernameClaim === 'email' && payload['email_verified'] !== undefined && payload['email_verified'] !== true) {
      throw new Error('oidc: email not verified');
    }
    const prefix = s.usernamePrefix === undefined ? (s.usernameClaim === 'email' ? '' : `${s.issuerUrl}#`) : s.usernamePrefix === '-' ? '' : s.usernamePrefix;
    const groupsValue = s.groupsClaim === undefined ? undefined : payload[s.groupsClaim];
    const groups = typeof groupsValue === 'string' ? [groupsValue] : Array.isArray(groupsValue) ? groupsValue.filter((g): g is string => typeof g === 'string') : [];
    const uid = s.uidClaim === undefined ? undefined : payload[s.uidClaim];
    if (s.uidClaim !== undefined && typeof uid !== 'string') throw new Error(`oidc: parse uid claim "${s.uidClaim}": claim not present`);
    return { name: prefix + name, ...(typeof uid === 'string' && uid !== '' ? { uid } : {}), groups: groups.map((g) => s.groupsPrefix + g) };
  }
}
