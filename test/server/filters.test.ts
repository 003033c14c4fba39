import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ANONYMOUS_WITH_ALWAYS_ALLOW } from '../../src/auth/anonymous-access.js';
import { openStream } from '../../src/server/response-stream.js';
import { writeObject } from '../../src/server/write-response.js';
import { RecordingLogger } from '../recording-logger.js';
import { startTestServer } from './test-server.js';

describe('authorization filter', () => {
  it('with AlwaysDeny forbids anonymous users in upstream words, but not system:masters', async () => {
    const t = await startTestServer({
      options: (o) => ({ ...o, authorization: { ...o.authorization, modes: ['AlwaysDeny'] } }),
      configure: (s) => s.setResourceHandler(async (ctx) => writeObject(ctx, 200, {})),
    });
    try {
      const list = await t.anonymous('/api/v1/namespaces/ns1/configmaps');
      assert.equal(list.status, 403);
      assert.deepEqual(JSON.parse(list.body), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "ns1": Everything is forbidden.',
        reason: 'Forbidden',
        details: { kind: 'configmaps' },
        code: 403,
      });
      const get = JSON.parse((await t.anonymous('/apis/apps/v1/deployments/d1/status')).body);
      assert.equal(
        get.message,
        'deployments.apps "d1" is forbidden: User "system:anonymous" cannot get resource "deployments/status" in API group "apps" at the cluster scope: Everything is forbidden.',
      );
      assert.deepEqual(get.details, { name: 'd1', group: 'apps', kind: 'deployments' });
      const path = JSON.parse((await t.anonymous('/healthz')).body);
      assert.equal(path.message, 'forbidden: User "system:anonymous" cannot get path "/healthz": Everything is forbidden.');
      assert.deepEqual(path.details, {});
      assert.equal((await t.admin('/api/v1/namespaces/ns1/configmaps')).status, 200);
    } finally {
      await t.close();
    }
  });

  it('with --anonymous-auth=false refuses requests without credentials with 401', async () => {
    // AlwaysDeny, where anonymous access would otherwise be on (and the answer a 403).
    const t = await startTestServer({
      options: (o) => ({ ...o, authentication: { ...o.authentication, anonymous: false }, authorization: { ...o.authorization, modes: ['AlwaysDeny'] } }),
    });
    try {
      assert.equal((await t.anonymous('/healthz')).status, 401);
      assert.equal((await t.admin('/healthz')).status, 200);
    } finally {
      await t.close();
    }
  });
});

describe('authentication filter', () => {
  it('refuses an unknown bearer token with 401 even though anonymous access is on', async () => {
    const t = await startTestServer({ options: (o) => ({ ...o, authorization: { ...o.authorization, modes: ['AlwaysDeny'] } }) });
    try {
      assert.equal((await t.anonymous('/healthz')).status, 403, 'anonymous access is on');
      const refused = await t.anonymous('/healthz', { headers: { Authorization: 'Bearer bogus' } });
      assert.equal(refused.status, 401);
      assert.deepEqual(JSON.parse(refused.body), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    } finally {
      await t.close();
    }
  });

  it('serves a request without credentials as system:anonymous, of system:unauthenticated, where anonymous access stays on', async () => {
    // ABAC letting the unauthenticated group read any path: a mode that leaves anonymous access on.
    const policy = join(mkdtempSync(join(tmpdir(), 'capstan-anonymous-')), 'policy.jsonl');
    writeFileSync(policy, '{"apiVersion": "abac.authorization.kubernetes.io/v1beta1", "kind": "Policy", "spec": {"group": "system:unauthenticated", "nonResourcePath": "*", "readonly": true}}\n');
    const t = await startTestServer({
      options: (o) => ({ ...o, authorization: { ...o.authorization, modes: ['ABAC'], policyFile: policy } }),
      configure: (s) => s.routes.add('/whoami', async (ctx) => writeObject(ctx, 200, ctx.user)),
    });
    try {
      const user = JSON.parse((await t.anonymous('/whoami')).body);
      assert.deepEqual(user, { name: 'system:anonymous', groups: ['system:unauthenticated'] });
    } finally {
      await t.close();
      rmSync(dirname(policy), { recursive: true, force: true });
    }
  });

  it('with AlwaysAllow among the modes turns anonymous access off, in upstream\'s words, and refuses requests without credentials with 401', async () => {
    for (const modes of [['AlwaysAllow'], ['AlwaysDeny', 'AlwaysAllow']]) {
      const logger = new RecordingLogger();
      const t = await startTestServer({ options: (o) => ({ ...o, authorization: { ...o.authorization, modes } }), deps: { logger } });
      try {
        assert.deepEqual(logger.warnings, [ANONYMOUS_WITH_ALWAYS_ALLOW], modes.join(','));
        const refused = await t.anonymous('/version');
        assert.equal(refused.status, 401, modes.join(','));
        assert.equal(JSON.parse(refused.body).reason, 'Unauthorized');
        assert.equal((await t.admin('/version')).status, 200);
      } finally {
        await t.close();
      }
    }
  });
});

describe('max in-flight filter', () => {
  it('answers 429 with Retry-After beyond the limit, except to system:masters', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const blocking = new Promise<void>((resolve) => (entered = resolve));
    // A user other than system:masters, who is throttled. Not an anonymous one: with the default
    // AlwaysAllow authorizer there are none (authentication-filter tests below).
    const tokens = join(mkdtempSync(join(tmpdir(), 'capstan-inflight-')), 'tokens.csv');
    writeFileSync(tokens, 'alice-secret,alice,uid-a\n');
    const alice = { headers: { Authorization: 'Bearer alice-secret' } };
    const t = await startTestServer({
      options: (o) => ({ ...o, authentication: { ...o.authentication, tokenAuthFile: tokens }, limits: { ...o.limits, maxRequestsInflight: 1 } }),
      configure: (s) =>
        s.routes.add('/block', async (ctx) => {
          entered();
          await released;
          writeObject(ctx, 200, {});
        }),
    });
    try {
      const first = t.anonymous('/block', alice);
      await blocking;
      const second = await t.anonymous('/healthz', alice);
      assert.equal(second.status, 429);
      assert.equal(second.headers['retry-after'], '1');
      assert.equal(JSON.parse(second.body).reason, 'TooManyRequests');
      assert.equal((await t.admin('/healthz')).status, 200, 'system:masters is never throttled');
      assert.equal((await t.anonymous('/api/v1/pods?watch=1', alice)).status, 404, 'watches are not counted');
      release();
      assert.equal((await first).status, 200);
      assert.equal((await t.anonymous('/healthz', alice)).status, 200);
    } finally {
      release();
      await t.close();
      rmSync(dirname(tokens), { recursive: true, force: true });
    }
  });
});

describe('timeout filter', () => {
  it('answers 504 Timeout when a handler outlives --request-timeout, and aborts its signal', async () => {
    let sawAbort!: () => void;
    const aborted = new Promise<void>((resolve) => {
      sawAbort = resolve;
    });
    const t = await startTestServer({
      options: (o) => ({ ...o, limits: { ...o.limits, requestTimeoutMs: 50 } }),
      configure: (s) =>
        s.routes.add('/slow', async (ctx) => {
          await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
          sawAbort();
        }),
    });
    try {
      const r = await t.admin('/slow');
      assert.equal(r.status, 504);
      assert.deepEqual(JSON.parse(r.body), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Timeout: request did not complete within the allotted timeout',
        reason: 'Timeout',
        details: {},
        code: 504,
      });
      await aborted;
      assert.equal((await t.admin('/healthz')).status, 200);
    } finally {
      await t.close();
    }
  });

  it('refuses a malformed ?timeout= with 400', async () => {
    const t = await startTestServer();
    try {
      const r = await t.admin('/healthz?timeout=abc');
      assert.equal(r.status, 400);
      assert.equal(JSON.parse(r.body).message, 'invalid timeout specified in the request URL - time: invalid duration "abc"');
    } finally {
      await t.close();
    }
  });
});

describe('graceful stop', () => {
  it('ends watches at once and lets short requests finish', async () => {
    let watchEnded = false;
    const t = await startTestServer({
      configure: (s) =>
        s.setResourceHandler(async (ctx) => {
          const stream = openStream(ctx, { contentType: 'application/json' });
          await stream.write('{"type":"ADDED"}\n');
          await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
          watchEnded = true;
          stream.end();
        }),
    });
    const watch = t.admin('/api/v1/pods?watch=1');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.close();
    const r = await watch;
    assert.equal(r.status, 200);
    assert.equal(r.body, '{"type":"ADDED"}\n');
    assert.equal(watchEnded, true);
  });

  it('with --shutdown-send-retry-after answers new requests 429 until the in-flight ones finish, health included', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const t = await startTestServer({
      options: (o) => ({ ...o, shutdownSendRetryAfter: true }),
      configure: (s) => s.routes.add('/slow', async (ctx) => {
        await released;
        writeObject(ctx, 200, { done: true });
      }),
    });
    const slow = t.admin('/slow', { http1: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopping = t.server.stop(10_000);
    try {
      const refused = await t.admin('/version', { http1: true });
      assert.equal(refused.status, 429);
      assert.equal(refused.body, 'The apiserver is shutting down, please try again later.\n');
      assert.equal(refused.headers['retry-after'], '5');
      assert.equal(refused.headers['connection'], 'close');
      assert.equal((await t.admin('/version')).status, 429, 'over HTTP/2 too');
      assert.equal((await t.admin('/healthz', { http1: true })).status, 200, 'health probes are still served');
      release();
      assert.equal((await slow).status, 200);
      await stopping;
      await assert.rejects(t.admin('/healthz', { http1: true }), 'the port closes once they finished');
    } finally {
      release();
      await t.close();
    }
  });
});

describe('client going away', () => {
  it('aborts the handler signal when an HTTP/2 client cancels, and the server keeps serving', async () => {
    const { connect, constants } = await import('node:http2');
    let sawAbort!: () => void;
    const aborted = new Promise<void>((resolve) => {
      sawAbort = resolve;
    });
    const t = await startTestServer({
      configure: (s) =>
        s.routes.add('/hang', async (ctx) => {
          const stream = openStream(ctx, { contentType: 'text/plain' });
          await stream.write('started\n');
          await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
          sawAbort();
          await stream.write('too late\n');
          stream.end();
        }),
    });
    try {
      const session = connect(t.info.url, { ca: t.info.tls.servingCaPem, cert: t.info.tls.admin.certPem, key: t.info.tls.admin.keyPem });
      const req = session.request({ [constants.HTTP2_HEADER_PATH]: '/hang' });
      await new Promise<void>((resolve) => req.once('data', () => resolve()));
      req.close(constants.NGHTTP2_CANCEL);
      await aborted;
      session.close();
      assert.equal((await t.admin('/healthz')).status, 200);
    } finally {
      await t.close();
    }
  });
});

describe('HSTS filter', () => {
  const HSTS = 'strict-transport-security';

  it('puts the directives on every response, refusals included, and nothing without them', async () => {
    const t = await startTestServer({
      options: (o) => ({ ...o, hstsDirectives: ['max-age=31536000', 'includeSubDomains', 'preload'] }),
      configure: (s) => s.setResourceHandler(async (ctx) => writeObject(ctx, 200, {})),
    });
    const plain = await startTestServer();
    try {
      const want = 'max-age=31536000; includeSubDomains; preload';
      assert.equal((await t.admin('/api/v1/namespaces/ns1/configmaps')).headers[HSTS], want);
      const unauthorized = await t.anonymous('/api/v1/namespaces/ns1/configmaps', { headers: { Authorization: 'Bearer no-such-token' } });
      assert.equal(unauthorized.status, 401);
      assert.equal(unauthorized.headers[HSTS], want);
      const badPath = await t.admin('/api/v1/namespaces/ns1/configmaps/%zz');
      assert.equal(badPath.status, 400);
      assert.equal(badPath.headers[HSTS], want);
      assert.equal((await plain.admin('/version')).headers[HSTS], undefined);
    } finally {
      await Promise.all([t.close(), plain.close()]);
    }
  });
});

describe('CORS filter', () => {
  const CORS = {
    'access-control-allow-origin': 'https://app.example.com',
    'access-control-allow-methods': 'POST, GET, OPTIONS, PUT, DELETE, PATCH',
    'access-control-allow-headers': 'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since',
    'access-control-expose-headers': 'Date',
    'access-control-allow-credentials': 'true',
  };
  const corsHeaders = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-')));

  it('answers an allowed origin with upstream\'s headers, its preflight with 204 before authentication, and no other', async () => {
    const t = await startTestServer({
      options: (o) => ({ ...o, corsAllowedOrigins: ['//app\\.example\\.com(:|$)', '(?i)^https://OTHER\\.example\\.com$'] }),
      configure: (s) => s.setResourceHandler(async (ctx) => writeObject(ctx, 200, {})),
    });
    const plain = await startTestServer();
    try {
      const origin = { Origin: 'https://app.example.com' };
      const get = await t.admin('/api/v1/namespaces/ns1/configmaps', { headers: origin });
      assert.equal(get.status, 200);
      assert.deepEqual(corsHeaders(get.headers), CORS);
      // Browsers send preflights without credentials; a bad token would be a 401 past this filter.
      const preflight = await t.anonymous('/api/v1/namespaces/ns1/configmaps', { method: 'OPTIONS', headers: { ...origin, Authorization: 'Bearer nope' } });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.body, '');
      assert.deepEqual(corsHeaders(preflight.headers), CORS);
      assert.match(String(preflight.headers['audit-id']), /^[0-9a-f-]{36}$/);
      assert.equal(preflight.headers['cache-control'], 'no-cache, private');
      assert.equal(corsHeaders((await t.admin('/version', { headers: { Origin: 'https://other.EXAMPLE.com' } })).headers)['access-control-allow-origin'], 'https://other.EXAMPLE.com');

      for (const other of ['https://app.example.com.evil.net', 'https://evil.net']) {
        const refused = await t.anonymous('/api/v1/namespaces/ns1/configmaps', { method: 'OPTIONS', headers: { Origin: other, Authorization: 'Bearer nope' } });
        assert.equal(refused.status, 401, other);
        assert.deepEqual(corsHeaders(refused.headers), {});
      }
      assert.deepEqual(corsHeaders((await plain.admin('/version', { headers: origin })).headers), {});
    } finally {
      await Promise.all([t.close(), plain.close()]);
    }
  });
});
