/**
 * The TLS options (--store-cafile, --store-certfile, --store-keyfile) against an etcd that serves
 * https and demands client certificates.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CertificateAuthority } from '../../../src/server/tls/certificate-authority.js';
import { StorageError } from '../../../src/storage/errors.js';
import { EtcdStorage } from '../../../src/storage/etcd/etcd-storage.js';
import type { EtcdTlsFiles } from '../../../src/storage/etcd/options.js';
import { EtcdProcess, etcdUnavailableReason } from '../../storage-conformance/etcd-process.js';

const skip = etcdUnavailableReason();
if (skip !== undefined) console.log(`# skipping etcd TLS tests: ${skip}`);

describe('etcd over TLS with client certificates', { skip }, () => {
  let dir: string;
  let etcd: EtcdProcess;
  let files: Required<EtcdTlsFiles> & { otherCaFile: string };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-etcd-tls-'));
    const ca = await CertificateAuthority.create('capstan-test-etcd-ca', 1);
    const other = await CertificateAuthority.create('some-other-ca', 1);
    const server = await ca.issue({ commonName: 'etcd', subjectAltNames: ['127.0.0.1', 'localhost'], usage: 'server', validDays: 1 });
    const client = await ca.issue({ commonName: 'capstan', usage: 'client', validDays: 1 });
    const write = async (name: string, pem: string) => {
      await writeFile(join(dir, name), pem);
      return join(dir, name);
    };
    files = {
      caFile: await write('ca.pem', ca.pem.certPem),
      certFile: await write('client.pem', client.certPem),
      keyFile: await write('client-key.pem', client.keyPem),
      otherCaFile: await write('other-ca.pem', other.pem.certPem),
    };
    etcd = await EtcdProcess.launch({
      tls: {
        caFile: files.caFile,
        certFile: await write('server.pem', server.certPem),
        keyFile: await write('server-key.pem', server.keyPem),
        clientCertFile: files.certFile,
        clientKeyFile: files.keyFile,
      },
    });
  });
  after(async () => {
    await etcd?.dispose();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  async function outcome(tls: EtcdTlsFiles): Promise<string> {
    const store = await EtcdStorage.open({ servers: [etcd.endpoint], tls, healthcheckTimeoutMs: 1_500 });
    try {
      await store.checkHealth();
      const created = await store.create(`/tls/${Math.random()}`, new Uint8Array([1, 2, 3]));
      assert.deepEqual([...((await store.get(created.kv.key)).kv?.value ?? [])], [1, 2, 3]);
      return 'ok';
    } catch (err) {
      assert.ok(err instanceof StorageError, String(err));
      return err.code;
    } finally {
      await store.close();
    }
  }

  it('connects with the CA, client certificate and key', async () => {
    assert.equal(await outcome({ caFile: files.caFile, certFile: files.certFile, keyFile: files.keyFile }), 'ok');
  });

  it("is 'unavailable' without a client certificate", async () => {
    assert.equal(await outcome({ caFile: files.caFile }), 'unavailable');
  });

  it("is 'unavailable' when the server's certificate is not signed by the given CA", async () => {
    assert.equal(await outcome({ caFile: files.otherCaFile, certFile: files.certFile, keyFile: files.keyFile }), 'unavailable');
  });
});
