import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StorageError } from '../../../src/storage/errors.js';
import { resolveEtcdOptions, toEtcd3Options, type EtcdStorageOptions } from '../../../src/storage/etcd/options.js';

function invalid(options: EtcdStorageOptions): string {
  try {
    resolveEtcdOptions(options);
  } catch (err) {
    assert.ok(err instanceof StorageError && err.code === 'invalid', String(err));
    return err.message;
  }
  assert.fail('expected the options to be rejected');
}

describe('etcd options', () => {
  it('fills in the defaults of --store-healthcheck-timeout and friends', () => {
    const resolved = resolveEtcdOptions({ servers: ['http://127.0.0.1:2379'] });
    assert.equal(resolved.healthcheckTimeoutMs, 2000);
    assert.equal(resolved.requestTimeoutMs, 15_000);
    assert.equal(resolved.watchReconnectTimeoutMs, 60_000);
    assert.equal(resolved.serversText, 'http://127.0.0.1:2379');
  });

  it('normalizes server URLs to scheme://host:port', () => {
    const resolved = resolveEtcdOptions({ servers: ['http://10.0.0.1:2379/', 'http://[::1]:2379', 'http://etcd'] });
    assert.deepEqual(resolved.servers, ['http://10.0.0.1:2379', 'http://[::1]:2379', 'http://etcd:80']);
  });

  const rejected: ReadonlyArray<[string, EtcdStorageOptions, RegExp]> = [
    ['no servers', { servers: [] }, /empty/],
    ['not a URL', { servers: ['127.0.0.1:2379'] }, /http\(s\):\/\/host:port|not a URL/],
    ['another scheme', { servers: ['unix:///run/etcd.sock'] }, /http\(s\)/],
    ['a path', { servers: ['http://127.0.0.1:2379/v3'] }, /http\(s\)/],
    ['http mixed with https', { servers: ['http://a:1', 'https://b:2'] }, /mixes/],
    ['a zero timeout', { servers: ['http://a:1'], healthcheckTimeoutMs: 0 }, /healthcheckTimeoutMs/],
  ];
  for (const [name, options, message] of rejected) {
    it(`rejects ${name}`, () => assert.match(invalid(options), message));
  }

  it('reads the TLS files into the client credentials', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-etcd-options-'));
    try {
      await writeFile(join(dir, 'ca.pem'), 'CA');
      await writeFile(join(dir, 'cert.pem'), 'CERT');
      await writeFile(join(dir, 'key.pem'), 'KEY');
      const options = {
        servers: ['https://127.0.0.1:2379'],
        tls: { caFile: join(dir, 'ca.pem'), certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') },
      };
      const client = await toEtcd3Options(options, resolveEtcdOptions(options));
      assert.equal(client.credentials?.rootCertificate.toString(), 'CA');
      assert.equal(client.credentials?.certChain?.toString(), 'CERT');
      assert.equal(client.credentials?.privateKey?.toString(), 'KEY');
      assert.deepEqual(client.hosts, ['https://127.0.0.1:2379']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names the option whose file cannot be read', async () => {
    const options = { servers: ['https://127.0.0.1:2379'], tls: { caFile: '/nonexistent/ca.pem' } };
    await assert.rejects(toEtcd3Options(options, resolveEtcdOptions(options)), (err: unknown) => {
      assert.ok(err instanceof StorageError && err.code === 'invalid');
      assert.match(err.message, /--store-cafile \/nonexistent\/ca\.pem/);
      return true;
    });
  });

  it('wants a client certificate and its key together', async () => {
    const options = { servers: ['https://127.0.0.1:2379'], tls: { certFile: '/x/cert.pem' } };
    await assert.rejects(toEtcd3Options(options, resolveEtcdOptions(options)), /--store-certfile and --store-keyfile/);
  });

  it('needs no credentials for plain http', async () => {
    const options = { servers: ['http://127.0.0.1:2379'] };
    assert.equal((await toEtcd3Options(options, resolveEtcdOptions(options))).credentials, undefined);
  });
});
