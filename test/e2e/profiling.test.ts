/**
 * /debug/pprof/ against the real server: a CPU profile of the server under load, in pprof's
 * format, through the HTTPS client and through kubectl; the answers Go's pprof gives for a second
 * profile at once and for a profile this server does not have; a profile longer than
 * --request-timeout (the paths are long-running, as upstream's); --profiling=false; the
 * authorizer's say over the paths; /debug/flags/v, which changes -v while the server runs; and
 * --debug-socket-path, the same paths on a unix socket with no authentication, served whatever
 * --profiling says.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN, createNamespace, pinnedKubectl, startServer, type TestServer } from './harness.js';
import { decodeProfile } from '../debug/pprof-decode.js';
import { eventually } from '../eventually.js';

describe('profiling endpoint', () => {
  let server: TestServer;
  let off: TestServer;
  let denying: TestServer;
  const socketDir = mkdtempSync(join(tmpdir(), 'capstan-debug-socket-'));
  const socketPath = join(socketDir, 'debug.sock');
  before(async () => {
    [server, off, denying] = await Promise.all([
      startServer(['--request-timeout=1s']),
      startServer(['--profiling=false', `--debug-socket-path=${socketPath}`]),
      startServer(['--authorization-mode=AlwaysDeny']),
    ]);
    await createNamespace(server, 'load');
  });
  after(async () => {
    await Promise.all([server?.stop(), off?.stop(), denying?.stop()]);
    rmSync(socketDir, { recursive: true, force: true });
  });

  it('lists what it serves', async () => {
    const index = await server.request('/debug/pprof/');
    assert.equal(index.status, 200);
    assert.equal(index.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(index.body, /<a href="profile\?seconds=30">profile<\/a>/);
    assert.match(index.body, /<a href="heap">heap<\/a>/);
  });

  it('profiles the server\'s CPU for the seconds asked, past the request timeout, in pprof\'s format', async () => {
    const profiled = server.request('/debug/pprof/profile?seconds=2');
    // Work for the profile to see: creates, until the profile comes back.
    let done = false;
    const load = (async () => {
      for (let i = 0; !done; i++) {
        const created = await server.request('/api/v1/namespaces/load/configmaps', { method: 'POST', body: { metadata: { name: `cm-${i}` }, data: { n: String(i) } } });
        assert.equal(created.status, 201, created.body);
      }
    })();
    const answer = await profiled.finally(() => (done = true));
    await load;
    assert.equal(answer.status, 200, answer.body);
    assert.equal(answer.headers['content-type'], 'application/octet-stream');
    assert.equal(answer.headers['content-disposition'], 'attachment; filename="profile"');
    assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    const profile = decodeProfile(answer.bytes);
    assert.deepEqual(profile.sampleTypes, ['samples/count', 'cpu/nanoseconds']);
    assert.ok(profile.durationNanos >= 1.9e9, `${profile.durationNanos} ns`);
    assert.ok(profile.samples.length > 0, 'samples');
    assert.ok(profile.functions.some((f) => f.filename.includes('/dist/capstan/') && f.name === 'handleCreate'), 'the create handler in the profile');
  });

  it('refuses a second profile while one runs, as Go does', async () => {
    const first = server.request('/debug/pprof/profile?seconds=1');
    await new Promise((r) => setTimeout(r, 200));
    const second = await server.request('/debug/pprof/profile?seconds=1');
    assert.equal(second.status, 500);
    assert.equal(second.body, 'Could not enable CPU profiling: cpu profiling already in use\n');
    assert.equal(second.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(second.headers['x-go-pprof'], '1');
    assert.equal((await first).status, 200);
  });

  it('answers 404 "Unknown profile" for a profile of Go\'s it does not have', async () => {
    for (const name of ['goroutine', 'block', 'symbol']) {
      const answer = await server.request(`/debug/pprof/${name}`);
      assert.equal(answer.status, 404, name);
      assert.equal(answer.body, 'Unknown profile\n');
    }
  });

  it('gives the live sampled objects of the heap, with the stacks that allocated them', async () => {
    // ~8 MB the server keeps (its watch cache holds every object): some 16 samples expected at
    // one per 512 KiB, so that the figure below does not hang on a handful of them.
    await Promise.all(Array.from({ length: 8 }, async (_, worker) => {
      for (let i = worker; i < 1000; i += 8) {
        const created = await server.request('/api/v1/namespaces/load/configmaps', { method: 'POST', body: { metadata: { name: `heap-${i}` }, data: { payload: 'p'.repeat(8192) } } });
        assert.equal(created.status, 201, created.body);
      }
    }));
    const answer = await server.request('/debug/pprof/heap?gc=1');
    assert.equal(answer.status, 200, answer.body);
    assert.equal(answer.headers['content-type'], 'application/octet-stream');
    assert.equal(answer.headers['content-disposition'], 'attachment; filename="heap"');
    const heap = decodeProfile(answer.bytes);
    assert.deepEqual(heap.sampleTypes, ['inuse_objects/count', 'inuse_space/bytes']);
    assert.equal(heap.period, 512 * 1024);
    const bytes = heap.samples.reduce((sum, s) => sum + s.values[1]!, 0);
    assert.ok(bytes > 2e6, `${bytes} bytes in use`);
    assert.ok(heap.functions.some((f) => f.filename.includes('/dist/capstan/')), 'allocations by the server\'s code');
  });

  it('refuses the heap profile\'s delta and text forms, which it does not write', async () => {
    for (const query of ['seconds=5', 'debug=1']) {
      const answer = await server.request(`/debug/pprof/heap?${query}`);
      assert.equal(answer.status, 400, query);
      assert.match(answer.body, /^the heap profile /);
    }
  });

  it('serves a profile to kubectl get --raw', { skip: pinnedKubectl() === undefined && 'kubectl is not installed' }, () => {
    const result = spawnSync(pinnedKubectl()!, ['--kubeconfig', server.kubeconfig, 'get', '--raw', '/debug/pprof/profile?seconds=1'], { timeout: 30_000 });
    assert.equal(result.status, 0, String(result.stderr));
    assert.ok(decodeProfile(result.stdout).durationNanos > 0);
  });

  it('is not there with --profiling=false', async () => {
    const answer = await off.request('/debug/pprof/profile?seconds=1');
    assert.equal(answer.status, 404);
    assert.equal(answer.json().reason, 'NotFound');
  });

  it('is behind the authorizer', async () => {
    // The admin is in system:masters, which no authorizer can deny: ask as nobody.
    const answer = await denying.request('/debug/pprof/profile?seconds=1', { anonymous: true });
    assert.equal(answer.status, 403, answer.body);
    assert.equal(answer.json().message, 'forbidden: User "system:anonymous" cannot get path "/debug/pprof/profile": Everything is forbidden.');
  });

  it('changes the log verbosity with a PUT to /debug/flags/v, with upstream\'s answers', async () => {
    // A failed authentication is logged at level 2: not at the default 0, then after the PUT.
    const unauthenticated = () => server.request('/api/v1/namespaces', { anonymous: true, headers: { Authorization: 'Bearer no-such-token' } });
    assert.equal((await unauthenticated()).status, 401);
    assert.doesNotMatch(server.output(), /Unable to authenticate the request/);
    const set = await server.request('/debug/flags/v', { method: 'PUT', body: '2' });
    assert.deepEqual([set.status, set.body, set.headers['content-type']], [200, 'successfully set klog.logging.verbosity to 2\n', 'text/plain']);
    assert.equal((await unauthenticated()).status, 401);
    // The log reaches this process on its own pipe, maybe after the answer.
    await eventually('the failed authentication in the log', () => /Unable to authenticate the request/.test(server.output()));
    const bad = await server.request('/debug/flags/v', { method: 'PUT', body: 'x' });
    assert.deepEqual([bad.status, bad.body], [400, 'failed set klog.logging.verbosity x: strconv.ParseInt: parsing "x": invalid syntax\n']);
    const get = await server.request('/debug/flags/v');
    assert.deepEqual([get.status, get.body], [406, 'unsupported http method\n']);
    const index = await server.request('/debug/flags/');
    assert.equal(index.status, 200);
    assert.match(index.body, /<tr>v<br>/);
    const huge = await server.request('/debug/flags/v', { method: 'PUT', body: '1'.repeat(4 * 1024 * 1024) });
    assert.deepEqual([huge.status, huge.json().reason], [413, 'RequestEntityTooLarge']);
    assert.equal((await server.request('/debug/flags/v', { method: 'PUT', body: '0' })).status, 200);
  });

  it('serves the same paths and the verbosity flag on --debug-socket-path, to anyone, even with --profiling=false', async () => {
    const profile = await overSocket(socketPath, '/debug/pprof/profile?seconds=1');
    assert.equal(profile.status, 200);
    assert.equal(profile.headers['content-type'], 'application/octet-stream');
    assert.ok(decodeProfile(profile.body).durationNanos > 0);
    const heap = await overSocket(socketPath, '/debug/pprof/heap');
    assert.equal(heap.status, 200);
    assert.deepEqual(decodeProfile(heap.body).sampleTypes, ['inuse_objects/count', 'inuse_space/bytes']);
    const unknown = await overSocket(socketPath, '/debug/pprof/goroutine');
    assert.deepEqual([unknown.status, unknown.body.toString()], [404, 'Unknown profile\n']);
    const flag = await overSocket(socketPath, '/debug/flags/v', 'PUT', '1');
    assert.deepEqual([flag.status, flag.body.toString()], [200, 'successfully set klog.logging.verbosity to 1\n']);
    const elsewhere = await overSocket(socketPath, '/api/v1/namespaces');
    assert.deepEqual([elsewhere.status, elsewhere.body.toString()], [404, '404 page not found\n']);
  });

  it('does not start when --debug-socket-path cannot be listened on, and says why', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'capstan-debug-socket-data-'));
    try {
      const result = spawnSync(process.execPath, [MAIN, '--data-dir', dataDir, '--secure-port', '0', '--bind-address', '127.0.0.1', `--debug-socket-path=${join(socketDir, 'missing', 'debug.sock')}`], { encoding: 'utf8', timeout: 30_000 });
      assert.notEqual(result.status, 0);
      assert.match(result.stderr, /cannot listen on --debug-socket-path .*missing\/debug\.sock/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** A request over plain HTTP on a unix socket. */
function overSocket(socketPath: string, path: string, method = 'GET', body?: string): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request({ socketPath, path, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end(body);
  });
}
