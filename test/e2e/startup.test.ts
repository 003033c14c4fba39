/**
 * Starting the real binary: how long until ready, and bad input at startup — a bad flag, a
 * corrupt store file, an unreachable etcd — gives a clear error, never a crash or lost data.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN, freePort, startServer } from './harness.js';

describe('starting the server', () => {
  it('prints how to reach it and its time to ready, and kubectl-ready state exists', async () => {
    const server = await startServer();
    try {
      // /readyz can answer before the line is printed, and a pipe carries it a moment later.
      for (let i = 0; i < 100 && !/get namespaces\n/.test(server.output()); i++) await new Promise((r) => setTimeout(r, 50));
      assert.match(server.output(), /Capstan serving the Kubernetes v1\.35\.\d+ API at https:\/\/127\.0\.0\.1:\d+ \(ready in \d+ ms\)/);
      assert.match(server.output(), /kubectl --kubeconfig \S+admin\.kubeconfig get namespaces/);
      console.log(`# started and ready in ${server.startupMs} ms (first start, certificates generated)`);
    } finally {
      await server.stop();
    }
  });

  it('refuses a bad flag with one clear line and exit code 1', () => {
    const r = spawnSync(process.execPath, [MAIN, '--secure-port', 'abc'], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /--secure-port/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  });

  it('runs as an executable, node getting the options of its first line', async () => {
    const server = await startServer([], undefined, 'executable');
    try {
      for (let i = 0; i < 100 && !/get namespaces\n/.test(server.output()); i++) await new Promise((r) => setTimeout(r, 50));
      assert.match(server.output(), /Capstan serving/);
      // env runs node in its own place: the process is node, with the young generation's size.
      const commandLine = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
      assert.match(commandLine[0]!, /(^|\/)node$/);
      assert.ok(commandLine.includes('--max-semi-space-size=64'), commandLine.join(' '));
    } finally {
      await server.stop();
    }
  });

  it('refuses a corrupt store file, naming it, and leaves it untouched', () => {
    const dir = mkdtempSync(join(tmpdir(), 'capstan-corrupt-'));
    try {
      mkdirSync(join(dir, 'store'));
      const file = join(dir, 'store', 'state.db');
      writeFileSync(file, 'this is not a database');
      const r = spawnSync(process.execPath, [MAIN, '--data-dir', dir, '--secure-port', '0', '--bind-address', '127.0.0.1'], { encoding: 'utf8', timeout: 30_000 });
      assert.equal(r.status, 1);
      assert.match(r.stderr, new RegExp(file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.equal(readFileSync(file, 'utf8'), 'this is not a database');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps running with an unreachable etcd, saying why, and /readyz reports it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'capstan-noetcd-'));
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN, '--data-dir', dir, '--secure-port', String(port), '--bind-address', '127.0.0.1', '--store-servers', 'http://127.0.0.1:1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    try {
      for (let i = 0; i < 150 && !/cannot reach etcd/.test(output); i++) await new Promise((r) => setTimeout(r, 100));
      assert.match(output, /cannot reach etcd at http:\/\/127\.0\.0\.1:1/);
      const readyz = spawnSync('curl', ['-sk', '--cert', join(dir, 'pki/admin.crt'), '--key', join(dir, 'pki/admin.key'), `https://127.0.0.1:${port}/readyz?verbose`], { encoding: 'utf8' });
      if (readyz.status === 0) {
        assert.match(readyz.stdout, /\[-\]etcd failed/);
        assert.match(readyz.stdout, /readyz check failed/);
      }
      assert.equal(child.exitCode, null, 'still running');
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
