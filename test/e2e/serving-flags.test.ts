/**
 * Serving flags against the real binary: --disable-http2-serving (kubectl, which offers HTTP/2
 * first, falls back to HTTP/1.1), --strict-transport-security-directives (the header on every
 * response, refusals included), --cors-allowed-origins (a browser's preflight) and
 * --external-hostname (the address discovery gives clients).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:tls';
import { startServer, type TestServer } from './harness.js';

describe('serving flags', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer([
      '--disable-http2-serving',
      '--strict-transport-security-directives', 'max-age=31536000,includeSubDomains',
      '--cors-allowed-origins', '//dashboard\\.example(:|$)',
      '--external-hostname', 'api.example.test',
    ]);
  });
  after(async () => server?.stop());

  it('negotiates HTTP/1.1 with a client that offers HTTP/2 first, and kubectl works over it', async () => {
    const socket = connect({ host: '127.0.0.1', port: server.port, rejectUnauthorized: false, ALPNProtocols: ['h2', 'http/1.1'] });
    await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    assert.equal(socket.alpnProtocol, 'http/1.1');
    socket.destroy();
    const listed = server.kubectl(['get', 'namespaces', '-o', 'name']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^namespace\/default$/m);
  });

  it('sends the HSTS header on answers and refusals alike', async () => {
    const want = 'max-age=31536000; includeSubDomains';
    assert.equal((await server.request('/api/v1/namespaces')).headers['strict-transport-security'], want);
    const unauthorized = await server.request('/api/v1/namespaces', { anonymous: true, headers: { Authorization: 'Bearer nope' } });
    assert.equal(unauthorized.status, 401);
    assert.equal(unauthorized.headers['strict-transport-security'], want);
  });

  it('answers an allowed origin\'s preflight without credentials, and no other origin', async () => {
    const preflight = await server.request('/api/v1/namespaces', { method: 'OPTIONS', anonymous: true, headers: { Origin: 'https://dashboard.example:8443' } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], 'https://dashboard.example:8443');
    assert.equal(preflight.headers['access-control-allow-credentials'], 'true');
    const other = await server.request('/api/v1/namespaces', { headers: { Origin: 'https://dashboard.example.evil' } });
    assert.equal(other.status, 200);
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  });

  it('gives clients the external host name with the secure port in /api\'s addresses', async () => {
    const api = (await server.request('/api')).json<{ serverAddressByClientCIDRs: Array<{ clientCIDR: string; serverAddress: string }> }>();
    assert.deepEqual(api.serverAddressByClientCIDRs, [{ clientCIDR: '0.0.0.0/0', serverAddress: `api.example.test:${server.port}` }]);
  });
});
