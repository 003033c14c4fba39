/** --tls-min-version and --tls-cipher-suites as a client meets them on the server's port. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type SecureVersion } from 'node:tls';
import { opensslCipherList, unknownCipherSuite } from '../../src/server/tls/go-tls-names.js';
import { startTestServer, type TestServer } from './test-server.js';

/** The protocol and suite a client limited to `maxVersion` gets, or the handshake's error. */
async function handshake(t: TestServer, maxVersion: SecureVersion): Promise<{ protocol: string | null; cipher: string } | { error: string }> {
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(t.info.url).port), ca: t.info.tls.servingCaPem, servername: 'localhost', maxVersion });
  try {
    await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    return { protocol: socket.getProtocol(), cipher: socket.getCipher().name };
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    socket.destroy();
  }
}

describe('TLS choices', () => {
  it('maps Go\'s suite names to OpenSSL\'s, leaving TLS 1.3 suites to their default', () => {
    assert.equal(opensslCipherList(['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'TLS_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305']), 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-CHACHA20-POLY1305');
    assert.equal(unknownCipherSuite(['TLS_RSA_WITH_AES_128_CBC_SHA', 'TLS_FAKE', 'TLS_OTHER']), 'TLS_FAKE');
  });

  it('serves TLS 1.2 and 1.3 by default, and only 1.3 with VersionTLS13', async () => {
    const plain = await startTestServer();
    const strict = await startTestServer({ options: (o) => ({ ...o, secureServing: { ...o.secureServing, tlsMinVersion: 'VersionTLS13' } }) });
    try {
      assert.deepEqual((await handshake(plain, 'TLSv1.2') as { protocol: string }).protocol, 'TLSv1.2');
      assert.deepEqual((await handshake(strict, 'TLSv1.3') as { protocol: string }).protocol, 'TLSv1.3');
      assert.match((await handshake(strict, 'TLSv1.2') as { error: string }).error, /protocol version/);
    } finally {
      await Promise.all([plain.close(), strict.close()]);
    }
  });

  it('offers only the named TLS 1.2 suites, and TLS 1.3 as ever', async () => {
    const t = await startTestServer({ options: (o) => ({ ...o, secureServing: { ...o.secureServing, tlsCipherSuites: ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384'] } }) });
    try {
      assert.deepEqual(await handshake(t, 'TLSv1.2'), { protocol: 'TLSv1.2', cipher: 'ECDHE-ECDSA-AES256-GCM-SHA384' });
      assert.equal((await handshake(t, 'TLSv1.3') as { protocol: string }).protocol, 'TLSv1.3');
    } finally {
      await t.close();
    }
  });
});
