/**
 * Which trusted bundle a verified client certificate chains to. The TLS layer verifies a client's
 * chain against every CA the server trusts for client certificates at all (the client CAs and the
 * front proxies' CAs); each authenticator then accepts only chains through its own CAs, as
 * upstream's keep separate pools.
 */
import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { Request } from '../server/request-context.js';

/** The SHA-256 fingerprints (Node's colon-separated form) of the certificates of a PEM bundle. */
export function fingerprintsOf(pem: string): ReadonlySet<string> {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return new Set(blocks.map((block) => new X509Certificate(block).fingerprint256));
}

/** Whether the peer's verified chain passes through one of `anchors` (above its own certificate). */
export function chainsTo(socket: TLSSocket, anchors: ReadonlySet<string>): boolean {
  let cert: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  const seen = new Set<string>();
  while (cert?.issuerCertificate && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    cert = cert.issuerCertificate;
    if (anchors.has(cert.fingerprint256)) return true;
  }
  return false;
}

/**
 * The connection a request came on, which keeps its client certificate: the TLS socket, or for
 * HTTP/2 the session (a request's `socket` is then a fresh proxy each time).
 */
export function connectionOf(req: Request): object {
  return 'stream' in req && req.stream?.session ? req.stream.session : req.socket;
}
