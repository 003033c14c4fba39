/**
 * Client certificates to users, with the TLS layer's verdict given: the fields Node reports for a
 * peer certificate are stood in for, so each rule is checked alone.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PeerCertificate } from 'node:tls';
import { X509Authenticator } from '../../src/auth/x509-authenticator.js';
import type { Request } from '../../src/server/request-context.js';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const IN_A_YEAR = new Date(Date.now() + 365 * 86_400_000).toUTCString();

/** A request on a connection whose peer certificate is `peer`; counts getPeerCertificate calls. */
function connection(peer: Partial<PeerCertificate>, authorized = true) {
  const socket = {
    asked: 0,
    authorized,
    authorizationError: authorized ? undefined : 'certificate has expired',
    getPeerCertificate() {
      this.asked++;
      return peer as PeerCertificate;
    },
  };
  return { socket, req: { socket } as unknown as Request };
}

function certificate(fields: Partial<PeerCertificate> = {}): Partial<PeerCertificate> {
  return { raw: Buffer.from('der'), valid_to: IN_A_YEAR, subject: { CN: 'alice', O: ['dev', 'ops'] } as PeerCertificate['subject'], ...fields };
}

describe('X509Authenticator', () => {
  it('maps the common name to the user and the organizations to groups', () => {
    const { req } = connection(certificate({ ext_key_usage: [CLIENT_AUTH] }));
    assert.deepEqual(new X509Authenticator().authenticate(req), { outcome: 'authenticated', user: { name: 'alice', groups: ['dev', 'ops'] } });
  });

  it('accepts a certificate without extended key usages, refuses one not for client auth', () => {
    assert.equal(new X509Authenticator().authenticate(connection(certificate()).req).outcome, 'authenticated');
    const refused = new X509Authenticator().authenticate(connection(certificate({ ext_key_usage: [SERVER_AUTH] })).req);
    assert.deepEqual(refused, { outcome: 'rejected', reason: 'certificate "alice" is not valid for client authentication' });
  });

  it('refuses a certificate the TLS layer could not verify, naming why', () => {
    const refused = new X509Authenticator().authenticate(connection(certificate(), false).req);
    assert.deepEqual(refused, { outcome: 'rejected', reason: 'verifying certificate "alice" failed: certificate has expired' });
  });

  it('reads a connection once, also a connection without a certificate', () => {
    const authenticator = new X509Authenticator();
    for (const peer of [certificate(), {}]) {
      const { socket, req } = connection(peer);
      const first = authenticator.authenticate(req);
      assert.deepEqual(authenticator.authenticate(req), first);
      assert.equal(socket.asked, 1);
    }
    assert.equal(new X509Authenticator().authenticate(connection({}).req).outcome, 'no-credentials');
  });
});
