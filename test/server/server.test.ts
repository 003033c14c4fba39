import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect as http2Connect } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { badRequest } from '../../src/api/errors.js';
import { writeObject } from '../../src/server/write-response.js';
import { eventually } from '../eventually.js';
import { startTestServer, type TestServer } from './test-server.js';

describe('Server over HTTPS', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({
      configure: (server) => {
        server.routes.add('/boom', async () => {
          throw new TypeError('boom');
        });
        server.routes.add('/bad', async () => {
          throw badRequest('that was bad');
        });
        server.routes.add('/whoami', async (ctx) => writeObject(ctx, 200, ctx.user));
        server.routes.add('/own-cache-control', async (ctx) => {
          ctx.res.setHeader('Cache-Control', 'public, max-age=60');
          ctx.warnings.push('299 - "first"', '299 - "second"');
          writeObject(ctx, 200, {}, { headers: { 'X-Extra': ['a', 'b'] } });
        });
        server.routes.addPrefix('/prefixed/', async (ctx) => writeObject(ctx, 200, { path: ctx.info.path }));
      },
    });
  });
  after(() => t.close());

  it('answers /healthz with ok over HTTP/2 with the admin certificate', async () => {
    const r = await t.admin('/healthz');
    assert.equal(r.status, 200);
    assert.equal(r.body, 'ok');
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(r.headers['cache-control'], 'no-cache, private');
    assert.match(String(r.headers['audit-id']), /^[0-9a-f-]{36}$/);
  });

  it('answers /healthz over HTTP/1.1 too', async () => {
    const r = await t.admin('/healthz', { http1: true });
    assert.equal(r.status, 200);
    assert.equal(r.body, 'ok');
    assert.equal(r.headers['cache-control'], 'no-cache, private');
    assert.match(String(r.headers['audit-id']), /^[0-9a-f-]{36}$/);
    assert.equal(r.headers['content-length'], '2');
  });

  for (const http1 of [true, false]) {
    it(`keeps a handler's own Cache-Control and gives every Warning and extra value a line, over HTTP/${http1 ? '1.1' : '2'}`, async () => {
      const r = await t.admin('/own-cache-control', { http1, headers: { 'Audit-ID': 'client-chosen-id' } });
      assert.equal(r.status, 200);
      assert.equal(r.headers['cache-control'], 'public, max-age=60', 'not joined with the default');
      assert.equal(r.headers['audit-id'], 'client-chosen-id', "the client's Audit-ID is echoed");
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.headers['content-length'], String(Buffer.byteLength(r.body)));
      assert.equal(r.headers['warning'], '299 - "first", 299 - "second"', 'two Warning lines, as the client joins them');
      assert.equal(r.headers['x-extra'], 'a, b');
    });
  }

  it('lists the readyz checks with ?verbose in upstream format', async () => {
    const r = await t.admin('/readyz?verbose');
    assert.equal(r.status, 200);
    assert.equal(r.body, '[+]ping ok\n[+]log ok\n[+]informer-sync ok\n[+]shutdown ok\nreadyz check passed\n');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
  });

  it('serves /version with major/minor of the served release', async () => {
    const r = await t.admin('/version');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    const v = JSON.parse(r.body);
    assert.equal(v.major, '1');
    assert.equal(v.minor, '35');
    assert.equal(v.gitVersion, 'v1.35.0');
    assert.match(v.platform, /^[a-z0-9]+\/[a-z0-9]+$/);
    assert.ok(r.body.startsWith('{\n  "major": "1",'), 'indented as upstream');
  });

  it('authenticates the admin client certificate as system:masters', async () => {
    const user = JSON.parse((await t.admin('/whoami')).body);
    assert.deepEqual(user, { name: 'capstan-admin', groups: ['system:masters', 'system:authenticated'] });
  });

  it('refuses a request without credentials with 401: with the default AlwaysAllow authorizer there is no anonymous access', async () => {
    const r = await t.anonymous('/whoami');
    assert.equal(r.status, 401);
    assert.equal(JSON.parse(r.body).reason, 'Unauthorized');
  });

  it('refuses an unknown bearer token with 401', async () => {
    const r = await t.anonymous('/api/v1/namespaces/golden/configmaps', { headers: { authorization: 'Bearer bogus' } });
    assert.equal(r.status, 401);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(r.body), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
  });

  it('answers an unknown non-resource path with a 404 Status', async () => {
    const r = await t.admin('/no/such/path');
    assert.equal(r.status, 404);
    assert.deepEqual(JSON.parse(r.body), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      details: {},
      code: 404,
    });
  });

  it('answers resource requests with 404 until a resource handler is installed', async () => {
    const r = await t.admin('/api/v1/namespaces');
    assert.equal(r.status, 404);
    assert.equal(JSON.parse(r.body).reason, 'NotFound');
  });

  it('turns a thrown error into a 500 Status and keeps serving', async () => {
    const r = await t.admin('/boom');
    assert.equal(r.status, 500);
    const status = JSON.parse(r.body);
    assert.equal(status.reason, 'InternalError');
    assert.equal(status.code, 500);
    assert.equal((await t.admin('/healthz')).status, 200);
  });

  it('sends an ApiError with its own code and reason', async () => {
    const r = await t.admin('/bad');
    assert.equal(r.status, 400);
    assert.equal(JSON.parse(r.body).message, 'that was bad');
  });

  it('pretty-prints for curl and for ?pretty=true, compact with a newline otherwise', async () => {
    assert.equal((await t.admin('/bad')).body.endsWith('}\n'), true);
    assert.equal((await t.admin('/bad?pretty=true')).body.startsWith('{\n  "kind": "Status"'), true);
    assert.equal((await t.admin('/bad', { headers: { 'user-agent': 'curl/8.5.0' } })).body.startsWith('{\n  "kind"'), true);
  });

  it('reuses an Audit-Id sent by the client', async () => {
    const r = await t.admin('/healthz', { headers: { 'audit-id': 'my-audit-id' } });
    assert.equal(r.headers['audit-id'], 'my-audit-id');
  });

  it('routes by longest prefix', async () => {
    const r = await t.admin('/prefixed/a/b');
    assert.deepEqual(JSON.parse(r.body), { path: '/prefixed/a/b' });
  });

  it('answers a malformed path escape with 400', async () => {
    const r = await t.admin('/api/v1/namespaces/%zz');
    assert.equal(r.status, 400);
  });

  it('writes the admin kubeconfig with the server URL', async () => {
    const { readFileSync, statSync } = await import('node:fs');
    const text = readFileSync(t.info.kubeconfigPath, 'utf8');
    assert.match(text, new RegExp(`server: ${t.info.url.replace(/[.]/g, '\\.')}\n`));
    assert.match(text, /current-context: capstan/);
    assert.equal(statSync(t.info.kubeconfigPath).mode & 0o777, 0o600);
  });
});

describe('Server resource handler', () => {
  it('hands every resource request to the installed handler', async () => {
    const t = await startTestServer({
      configure: (server) =>
        server.setResourceHandler(async (ctx) => {
          ctx.warnings.push('299 - "just testing"');
          writeObject(ctx, 200, { verb: ctx.info.verb, resource: ctx.info.resource, namespace: ctx.info.namespace });
        }),
    });
    try {
      const r = await t.admin('/api/v1/namespaces/ns1/pods?watch=0');
      assert.deepEqual(JSON.parse(r.body), { verb: 'list', resource: 'pods', namespace: 'ns1' });
      assert.equal(r.headers['warning'], '299 - "just testing"');
    } finally {
      await t.close();
    }
  });
});

describe('Server, a client that leaves mid-response', () => {
  it('aborts the request\'s work over HTTP/2 and over HTTP/1.1', async () => {
    const aborted: string[] = [];
    const t = await startTestServer({
      configure: (server) =>
        server.setResourceHandler(async (ctx) => {
          // A watch-like response: the head goes out, then the handler waits for its signal.
          ctx.res.statusCode = 200;
          (ctx.res as { flushHeaders(): void }).flushHeaders();
          await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
          aborted.push(ctx.query.get('via') ?? '');
        }),
    });
    try {
      const ca = t.info.tls.servingCaPem;
      const { certPem: cert, keyPem: key } = t.info.tls.admin;
      // HTTP/2 reports a stream its client reset as finished ('finish', writableFinished), not as cut short.
      const session = http2Connect(t.info.url, { ca, cert, key });
      const stream = session.request({ ':path': '/api/v1/pods?watch=1&via=h2' });
      await new Promise((resolve) => stream.once('response', resolve));
      session.destroy();
      const req = httpsRequest(`${t.info.url}/api/v1/pods?watch=1&via=h1`, { ca, cert, key, agent: false });
      req.on('response', (res) => res.destroy()).on('error', () => {}).end();
      await eventually('both requests were aborted', () => aborted.length === 2);
      assert.deepEqual(aborted.sort(), ['h1', 'h2']);
    } finally {
      await t.close();
    }
  });
});

describe('Server HTTP/2 flags', () => {
  /** What a client offering both protocols is given, and the server's HTTP/2 stream limit if h2. */
  async function negotiate(url: string, ca: string): Promise<{ protocol: string | false | null; maxStreams?: number }> {
    const { connect } = await import('node:tls');
    const { port } = new URL(url);
    const socket = connect({ host: '127.0.0.1', port: Number(port), ca, servername: 'localhost', ALPNProtocols: ['h2', 'http/1.1'] });
    await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    const protocol = socket.alpnProtocol;
    socket.destroy();
    if (protocol !== 'h2') return { protocol };
    const { connect: connectH2 } = await import('node:http2');
    const session = connectH2(url, { ca });
    const settings = await new Promise<{ maxConcurrentStreams?: number }>((resolve, reject) => session.once('remoteSettings', resolve).once('error', reject));
    session.close();
    return { protocol, maxStreams: settings.maxConcurrentStreams };
  }

  it('offers HTTP/2 with 1,000 streams a connection by default, the flag\'s number when given', async () => {
    const plain = await startTestServer();
    const limited = await startTestServer({ options: (o) => ({ ...o, secureServing: { ...o.secureServing, http2MaxStreamsPerConnection: 42 } }) });
    try {
      assert.deepEqual(await negotiate(plain.info.url, plain.info.tls.servingCaPem), { protocol: 'h2', maxStreams: 1000 });
      assert.deepEqual(await negotiate(limited.info.url, limited.info.tls.servingCaPem), { protocol: 'h2', maxStreams: 42 });
    } finally {
      await Promise.all([plain.close(), limited.close()]);
    }
  });

  it('serves HTTP/1.1 alone with --disable-http2-serving', async () => {
    const t = await startTestServer({ options: (o) => ({ ...o, secureServing: { ...o.secureServing, disableHttp2: true } }) });
    try {
      assert.deepEqual(await negotiate(t.info.url, t.info.tls.servingCaPem), { protocol: 'http/1.1' });
      const healthz = await t.admin('/healthz', { http1: true });
      assert.equal(healthz.status, 200);
      assert.equal(healthz.body, 'ok');
      const refused = await t.anonymous('/api/v1/namespaces/ns1/configmaps', { http1: true, headers: { Authorization: 'Bearer no-such-token' } });
      assert.equal(refused.status, 401);
      // A client that speaks HTTP/2 only finds no protocol in common.
      await assert.rejects(t.admin('/healthz'), /no application protocol/);
    } finally {
      await t.close();
    }
  });
});

describe('Server --livez-grace-period', () => {
  it('passes /livez during the grace whatever its checks say, and fails /readyz as ever', async () => {
    const failingHook = (s: import('../../src/server/server.js').Server) => s.addPostStartHook('broken', () => {
      throw new Error('broken on purpose');
    });
    const graced = await startTestServer({ options: (o) => ({ ...o, livezGracePeriodMs: 3_600_000 }), configure: failingHook });
    const plain = await startTestServer({ configure: failingHook });
    try {
      assert.equal((await graced.admin('/livez')).status, 200);
      assert.equal((await graced.admin('/livez/poststarthook/broken')).status, 200);
      assert.equal((await graced.admin('/readyz')).status, 500);
      assert.equal((await plain.admin('/livez')).status, 500);
    } finally {
      await Promise.all([graced.close(), plain.close()]);
    }
  });
});
