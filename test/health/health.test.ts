import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../server/test-server.js';
import { HealthChecks } from '../../src/health/health-checks.js';

describe('health endpoints', () => {
  it('report a failing check with reason withheld, 500 and "check failed"', async () => {
    let storeUp = false;
    const t = await startTestServer({
      deps: { storage: { checkHealth: async () => { if (!storeUp) throw new Error('connection refused'); } } },
    });
    try {
      const r = await t.admin('/readyz');
      assert.equal(r.status, 500);
      assert.equal(
        r.body,
        '[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n[-]etcd-readiness failed: reason withheld\n[+]informer-sync ok\n[+]shutdown ok\nreadyz check failed\n',
      );
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
      const livez = await t.admin('/livez?verbose');
      assert.equal(livez.status, 500);
      assert.equal(livez.body, '[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\nlivez check failed\n');
      storeUp = true;
      assert.equal((await t.admin('/readyz')).body, 'ok');
      assert.equal((await t.admin('/healthz?verbose')).body, '[+]ping ok\n[+]log ok\n[+]etcd ok\nhealthz check passed\n');
    } finally {
      await t.close();
    }
  });

  it('exclude skips named checks and warns about unknown ones', async () => {
    const t = await startTestServer({ deps: { storage: { checkHealth: async () => { throw new Error('down'); } } } });
    try {
      const r = await t.admin('/readyz?verbose&exclude=etcd&exclude=etcd-readiness&exclude=nope');
      assert.equal(r.status, 200);
      assert.equal(
        r.body,
        '[+]ping ok\n[+]log ok\n[+]etcd excluded: ok\n[+]etcd-readiness excluded: ok\n[+]informer-sync ok\n[+]shutdown ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n',
      );
    } finally {
      await t.close();
    }
  });

  it('serves one check at /readyz/<name>, and 404 for an unknown name', async () => {
    const t = await startTestServer({ deps: { storage: { checkHealth: async () => { throw new Error('down'); } } } });
    try {
      const ping = await t.admin('/readyz/ping');
      assert.equal(ping.status, 200);
      assert.equal(ping.body, 'ok');
      const etcd = await t.admin('/readyz/etcd');
      assert.equal(etcd.status, 500);
      assert.equal(etcd.body, 'internal server error: down\n');
      assert.equal((await t.admin('/readyz/nope')).status, 404);
      assert.equal((await t.admin('/livez/shutdown')).status, 404, 'shutdown is a readyz check only');
    } finally {
      await t.close();
    }
  });

  it('gate readiness on post-start hooks and fail readyz (only) once shutdown begins', async () => {
    const t = await startTestServer({ configure: (s) => s.addPostStartHook('bootstrap-things', async () => {}) });
    try {
      const ready = await t.admin('/readyz?verbose');
      assert.match(ready.body, /\[\+\]poststarthook\/bootstrap-things ok\n\[\+\]shutdown ok\n/);
      t.server.beginShutdown();
      const r = await t.admin('/readyz?verbose');
      assert.equal(r.status, 500);
      assert.match(r.body, /\[-\]shutdown failed: reason withheld\nreadyz check failed\n$/);
      assert.equal((await t.admin('/livez')).status, 200);
      assert.equal((await t.admin('/healthz')).status, 200);
    } finally {
      await t.close();
    }
  });
});

describe('livez grace', () => {
  it('passes /livez checks until the grace ends, then runs them; other endpoints run them throughout', async () => {
    let now = 0;
    const checks = new HealthChecks({ untilMs: 1000, now: () => now }).add({ name: 'broken', check: () => { throw new Error('no'); } });
    const run = (endpoint: 'livez' | 'readyz') => checks.checksFor(endpoint)[0]!.check(new AbortController().signal);
    assert.doesNotThrow(() => run('livez'));
    assert.throws(() => run('readyz'), /no/);
    now = 1000;
    assert.throws(() => run('livez'), /no/);
  });
});
