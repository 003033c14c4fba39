/**
 * Client certificate authentication: the TLS layer verified the chain against the trusted client
 * CAs (the cluster CA and --client-ca-file); this maps a verified certificate to a user, as
 * upstream: common name -> user name, organizations -> groups.
 */
import type { PeerCertificate, TLSSocket } from 'node:tls';
import type { Request } from '../server/request-context.js';
import type { AuthenticationResult, Authenticator } from './authenticator.js';
import { chainsTo, connectionOf } from './peer-chain.js';

const CLIENT_AUTH_USAGE = '1.3.6.1.5.5.7.3.2';
const ANY_EXTENDED_KEY_USAGE = '2.5.29.37.0';

/**
 * Parsing the peer certificate is the costliest step of a small request, and a connection's peer
 * certificate never changes, so the outcome is kept per connection (until the certificate expires).
 */
interface CachedOutcome {
  readonly result: AuthenticationResult;
  readonly validUntil: number;
}

export class X509Authenticator implements Authenticator {
  readonly #byConnection = new WeakMap<object, CachedOutcome>();

  /**
   * `anchors`: the fingerprints of the client CAs (peer-chain.ts), given when the TLS layer also
   * trusts other CAs (the front proxies'), whose certificates name no user here.
   */
  constructor(private readonly anchors?: ReadonlySet<string>) {}

  authenticate(req: Request): AuthenticationResult {
    const connection = connectionOf(req);
    const cached = this.#byConnection.get(connection);
    if (cached && Date.now() < cached.validUntil) return cached.result;
    const socket = req.socket as TLSSocket;
    const outcome = this.#authenticateSocket(socket);
    this.#byConnection.set(connection, outcome);
    return outcome.result;
  }

  #authenticateSocket(socket: TLSSocket): CachedOutcome {
    // A connection without a certificate never gets one: its outcome holds for as long as it lasts.
    if (typeof socket.getPeerCertificate !== 'function') return { result: { outcome: 'no-credentials' }, validUntil: Infinity };
    // Built anew at each call (every field of the certificate as JS values): ask once.
    const peer = socket.getPeerCertificate();
    return { result: this.#verify(socket, peer), validUntil: peer?.valid_to ? Date.parse(peer.valid_to) : Infinity };
  }

  #verify(socket: TLSSocket, peer: PeerCertificate | undefined): AuthenticationResult {
    if (!peer || !peer.raw) return { outcome: 'no-credentials' };
    if (!socket.authorized) {
      return { outcome: 'rejected', reason: `verifying certificate ${describe(peer.subject?.CN)} failed: ${socket.authorizationError ?? 'unknown error'}` };
    }
    if (this.anchors !== undefined && !chainsTo(socket, this.anchors)) {
      return { outcome: 'rejected', reason: `verifying certificate ${describe(peer.subject?.CN)} failed: x509: certificate signed by unknown authority` };
    }
    // Node lists the extended key usages already; absent, the certificate is good for any use.
    const usages = peer.ext_key_usage;
    if (usages && !usages.includes(CLIENT_AUTH_USAGE) && !usages.includes(ANY_EXTENDED_KEY_USAGE)) {
      return { outcome: 'rejected', reason: `certificate ${describe(peer.subject?.CN)} is not valid for client authentication` };
    }
    const name = firstOf(peer.subject?.CN);
    if (!name) return { outcome: 'rejected', reason: 'client certificate has no common name' };
    return { outcome: 'authenticated', user: { name, groups: allOf(peer.subject?.O) } };
  }
}

/** Node gives a subject attribute as a string, or an array when it repeats. */
function allOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function firstOf(value: string | string[] | undefined): string | undefined {
  return allOf(value)[0];
}

function describe(cn: string | string[] | undefined): string {
  return JSON.stringify(firstOf(cn) ?? '');
}
