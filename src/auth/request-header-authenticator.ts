/**
 * Request-header authentication (--requestheader-*), as upstream's: a front proxy that presents a
 * client certificate of --requestheader-client-ca-file (with one of --requestheader-allowed-names
 * as its common name, when any are given) names the user in headers: the first of the username
 * headers present, the UID headers likewise, every value of the group headers, and each header
 * under an extra prefix as an extra attribute (its name after the prefix, lower-cased and
 * unescaped). The headers are then removed from the request. A request from anyone else, or
 * without a user name, is not this authenticator's.
 */
import type { TLSSocket } from 'node:tls';
import type { Request } from '../server/request-context.js';
import type { AuthenticationResult, Authenticator } from './authenticator.js';
import { chainsTo, connectionOf } from './peer-chain.js';
import type { UserInfo } from './user-info.js';

export interface RequestHeaderSettings {
  /** Fingerprints of the front proxies' CAs (peer-chain.ts). */
  readonly anchors: ReadonlySet<string>;
  readonly allowedNames: readonly string[];
  readonly usernameHeaders: readonly string[];
  readonly uidHeaders: readonly string[];
  readonly groupHeaders: readonly string[];
  readonly extraHeadersPrefixes: readonly string[];
}

export class RequestHeaderAuthenticator implements Authenticator {
  private readonly usernames: string[];
  private readonly uids: string[];
  private readonly groups: string[];
  private readonly prefixes: string[];
  /** A connection's proxy verdict: its certificate never changes. */
  private readonly proxies = new WeakMap<object, 'proxy' | 'not-proxy' | { rejected: string }>();

  constructor(private readonly settings: RequestHeaderSettings) {
    // Node lower-cases header names; so are ours.
    const lower = (names: readonly string[]) => names.map((n) => n.trim().toLowerCase()).filter((n) => n !== '');
    this.usernames = lower(settings.usernameHeaders);
    this.uids = lower(settings.uidHeaders);
    this.groups = lower(settings.groupHeaders);
    this.prefixes = lower(settings.extraHeadersPrefixes);
  }

  authenticate(req: Request): AuthenticationResult {
    const name = this.first(req, this.usernames);
    if (name === undefined) return { outcome: 'no-credentials' };
    const verdict = this.proxyVerdict(req);
    if (verdict === 'not-proxy') return { outcome: 'no-credentials' };
    if (verdict !== 'proxy') return { outcome: 'rejected', reason: verdict.rejected };
    const uid = this.first(req, this.uids);
    const groups = this.groups.flatMap((header) => valuesOf(req, header));
    const extra: Record<string, string[]> = {};
    for (const header of Object.keys(req.headers)) {
      const prefix = this.prefixes.find((p) => header.startsWith(p));
      if (prefix === undefined) continue;
      const key = unescapeKey(header.slice(prefix.length));
      (extra[key] ??= []).push(...valuesOf(req, header));
    }
    this.clearHeaders(req);
    const user: UserInfo = { name, ...(uid !== undefined ? { uid } : {}), groups, ...(Object.keys(extra).length > 0 ? { extra } : {}) };
    return { outcome: 'authenticated', user };
  }

  private proxyVerdict(req: Request): 'proxy' | 'not-proxy' | { rejected: string } {
    const connection = connectionOf(req);
    let verdict = this.proxies.get(connection);
    if (verdict === undefined) {
      verdict = verdictOf(req.socket as TLSSocket, this.settings);
      this.proxies.set(connection, verdict);
    }
    return verdict;
  }

  private first(req: Request, headers: readonly string[]): string | undefined {
    for (const header of headers) {
      const value = valuesOf(req, header)[0];
      if (value !== undefined && value !== '') return value;
    }
    return undefined;
  }

  /** Upstream removes the headers once they have been read, so nothing downstream trusts them again. */
  private clearHeaders(req: Request): void {
    for (const header of [...this.usernames, ...this.uids, ...this.groups]) delete req.headers[header];
    for (const header of Object.keys(req.headers)) {
      if (this.prefixes.some((p) => header.startsWith(p))) delete req.headers[header];
    }
  }
}

function verdictOf(socket: TLSSocket, settings: RequestHeaderSettings): 'proxy' | 'not-proxy' | { rejected: string } {
  if (typeof socket.getPeerCertificate !== 'function' || !socket.authorized) return 'not-proxy';
  if (!chainsTo(socket, settings.anchors)) return 'not-proxy';
  const cn = socket.getPeerCertificate().subject?.CN;
  const name = Array.isArray(cn) ? cn[0] ?? '' : cn ?? '';
  if (settings.allowedNames.length > 0 && !settings.allowedNames.includes(name)) {
    return { rejected: `x509: subject with cn=${name} is not in the allowed list` };
  }
  return 'proxy';
}

/** Every value of a header, each repetition its own (Node joins most repeated headers with ", "). */
function valuesOf(req: Request, header: string): string[] {
  const distinct = (req as { headersDistinct?: Record<string, string[] | undefined> }).headersDistinct?.[header];
  if (distinct !== undefined) return distinct;
  const value = req.headers[header];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Upstream's extra key: the rest of the header name, lower-cased, path-unescaped. */
function unescapeKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}
