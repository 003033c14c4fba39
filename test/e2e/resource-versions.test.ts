/**
 * Every cell of the spec's three resourceVersion tables (get, list, watch) against the real server,
 * plus the errors: 422 for Invalid combinations, 400 for continue with a resourceVersion, 410 for
 * compacted revisions and expired continue tokens, 504 with Retry-After for a version not yet seen.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { createNamespace, credentialsOf, startServer, type TestServer } from './harness.js';

// Secrets: unlike ConfigMaps, a new namespace holds none, so every list shows only what the test made.
const NS = '/api/v1/namespaces/rv/secrets';

describe('resourceVersion semantics', () => {
  let server: TestServer;
  /** Revisions: after the first object, after the second one. */
  let rv1 = 0;
  let rv2 = 0;

  const list = async (query: string) => server.request(`${NS}?${query}`);
  const names = (body: any): string[] => body.items.map((i: any) => i.metadata.name);
  const create = async (name: string): Promise<number> => {
    const res = await server.request(NS, { method: 'POST', body: { apiVersion: 'v1', kind: 'Secret', metadata: { name } } });
    assert.equal(res.status, 201, res.body);
    return Number(res.json().metadata.resourceVersion);
  };

  before(async () => {
    server = await startServer();
    await createNamespace(server, 'rv');
    rv1 = await create('a');
    rv2 = await create('b');
  });
  after(async () => server?.stop());

  describe('get', () => {
    it('unset: Most Recent', async () => {
      const res = await server.request(`${NS}/b`);
      assert.equal(res.status, 200);
      assert.equal(res.json().metadata.resourceVersion, String(rv2));
    });
    it('0: Any', async () => {
      assert.equal((await server.request(`${NS}/a?resourceVersion=0`)).status, 200);
    });
    it('other: Not older than', async () => {
      assert.equal((await server.request(`${NS}/a?resourceVersion=${rv1}`)).status, 200);
    });
    it('other, not yet seen: 504 Too large resource version', async () => {
      const res = await server.request(`${NS}/a?resourceVersion=${rv2 + 100000}`);
      assertTooLarge(res);
    });
  });

  describe('list, resourceVersionMatch unset, limit unset', () => {
    it('unset: Most Recent', async () => {
      const res = await list('');
      assert.equal(res.status, 200);
      assert.ok(Number(res.json().metadata.resourceVersion) >= rv2);
      assert.deepEqual(names(res.json()), ['a', 'b']);
      assert.equal(res.json().metadata.continue, '');
    });
    it('0: Any', async () => {
      assert.equal((await list('resourceVersion=0')).status, 200);
    });
    it('other: Not older than', async () => {
      const res = await list(`resourceVersion=${rv1}`);
      assert.equal(res.status, 200);
      assert.ok(Number(res.json().metadata.resourceVersion) >= rv1);
    });
  });

  describe('list, resourceVersionMatch unset, limit=n', () => {
    it('unset: Most Recent', async () => {
      const res = await list('limit=1');
      assert.equal(res.status, 200);
      assert.deepEqual(names(res.json()), ['a']);
      assert.notEqual(res.json().metadata.continue, '');
      assert.equal(res.json().metadata.remainingItemCount, 1);
    });
    it('0: Any', async () => {
      assert.equal((await list('resourceVersion=0&limit=1')).status, 200);
    });
    it('other: Exact', async () => {
      const res = await list(`resourceVersion=${rv1}&limit=5`);
      assert.equal(res.status, 200);
      assert.equal(res.json().metadata.resourceVersion, String(rv1));
      assert.deepEqual(names(res.json()), ['a']);
    });
  });

  describe('list, resourceVersionMatch unset, limit=n, continue=token', () => {
    const firstPage = async () => (await list('limit=1')).json();
    it('unset: Continuation', async () => {
      const page1 = await firstPage();
      const res = await list(`limit=1&continue=${encodeURIComponent(page1.metadata.continue)}`);
      assert.equal(res.status, 200);
      assert.deepEqual(names(res.json()), ['b']);
      assert.equal(res.json().metadata.resourceVersion, page1.metadata.resourceVersion);
    });
    it('0: Continuation', async () => {
      const page1 = await firstPage();
      const res = await list(`resourceVersion=0&limit=1&continue=${encodeURIComponent(page1.metadata.continue)}`);
      assert.equal(res.status, 200);
      assert.deepEqual(names(res.json()), ['b']);
    });
    it('other: Invalid, 400', async () => {
      const page1 = await firstPage();
      const res = await list(`resourceVersion=${rv1}&limit=1&continue=${encodeURIComponent(page1.metadata.continue)}`);
      assert.equal(res.status, 400);
      assert.equal(res.json().reason, 'BadRequest');
    });
    it('a tampered token: 400', async () => {
      const res = await list('limit=1&continue=not-a-token');
      assert.equal(res.status, 400);
      assert.match(res.json().message, /continue key is not valid/);
    });
  });

  for (const limit of ['', '&limit=5']) {
    describe(`list, resourceVersionMatch=Exact${limit ? ', limit=n' : ', limit unset'}`, () => {
      it('unset: Invalid', async () => assertInvalid(await list(`resourceVersionMatch=Exact${limit}`)));
      it('0: Invalid', async () => assertInvalid(await list(`resourceVersion=0&resourceVersionMatch=Exact${limit}`)));
      it('other: Exact', async () => {
        const res = await list(`resourceVersion=${rv1}&resourceVersionMatch=Exact${limit}`);
        assert.equal(res.status, 200, res.body);
        assert.equal(res.json().metadata.resourceVersion, String(rv1));
        assert.deepEqual(names(res.json()), ['a']);
      });
    });
    describe(`list, resourceVersionMatch=NotOlderThan${limit ? ', limit=n' : ', limit unset'}`, () => {
      it('unset: Invalid', async () => assertInvalid(await list(`resourceVersionMatch=NotOlderThan${limit}`)));
      it('0: Any', async () => assert.equal((await list(`resourceVersion=0&resourceVersionMatch=NotOlderThan${limit}`)).status, 200));
      it('other: Not older than', async () => {
        const res = await list(`resourceVersion=${rv1}&resourceVersionMatch=NotOlderThan${limit}`);
        assert.equal(res.status, 200);
        assert.ok(Number(res.json().metadata.resourceVersion) >= rv1);
      });
      it('other, not yet seen: 504 Too large resource version', async () => {
        assertTooLarge(await list(`resourceVersion=${rv2 + 100000}&resourceVersionMatch=NotOlderThan${limit}`));
      });
    });
  }

  describe('watch', () => {
    it('unset: Get State and Start at Most Recent', async () => {
      const events = await watchEvents(server, `${NS}?watch=1`, 2);
      assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED a', 'ADDED b']);
    });
    it('0: Get State and Start at Any', async () => {
      const events = await watchEvents(server, `${NS}?watch=1&resourceVersion=0`, 2);
      assert.deepEqual(events.map((e) => e.type), ['ADDED', 'ADDED']);
    });
    it('other: Start at Exact (changes after the version, no synthetic events)', async () => {
      const pending = watchEvents(server, `${NS}?watch=1&resourceVersion=${rv1}`, 1);
      const events = await pending;
      assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED b']);
    });
    it('sendInitialEvents with bookmarks ends the initial state with the annotated BOOKMARK', async () => {
      const events = await watchEvents(server, `${NS}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`, 3);
      assert.deepEqual(events.map((e) => e.type), ['ADDED', 'ADDED', 'BOOKMARK']);
      assert.equal(events[2].object.metadata.annotations['k8s.io/initial-events-end'], 'true');
      assert.ok(Number(events[2].object.metadata.resourceVersion) >= rv2);
    });
    it('sendInitialEvents without resourceVersionMatch=NotOlderThan is Invalid', async () => {
      assertInvalid(await server.request(`${NS}?watch=1&sendInitialEvents=true`));
    });
  });

  describe('timeoutSeconds and limit, converted as upstream converts ListOptions', () => {
    const OTHER = '/api/v1/namespaces/rv-timeouts/secrets';
    before(async () => createNamespace(server, 'rv-timeouts'));

    /** Opens a watch from now, creates `name` after 300 ms, and gives what the watch saw. */
    const watchThenCreate = async (query: string, name: string): Promise<any[]> => {
      const now = (await server.request(OTHER)).json().metadata.resourceVersion;
      const pending = watchEvents(server, `${OTHER}?watch=1&resourceVersion=${now}&${query}`, 1);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal((await server.request(OTHER, { method: 'POST', body: { metadata: { name } } })).status, 201);
      return pending;
    };

    it('keeps a watch open for a timeout longer than a Node timer holds (~24.8 days)', async () => {
      const events = await watchThenCreate('timeoutSeconds=3000000', 'long');
      assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED long']);
    });
    it('takes timeoutSeconds=0 as unset (a random time from --min-request-timeout)', async () => {
      const events = await watchThenCreate('timeoutSeconds=0', 'zero');
      assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED zero']);
    });
    it('ends a watch with a negative timeoutSeconds at once, with 200', async () => {
      const now = (await server.request(OTHER)).json().metadata.resourceVersion;
      // Fewer events than asked for: the stream ended by itself (a refusal would come as one 'HTTP' entry).
      assert.deepEqual(await watchEvents(server, `${OTHER}?watch=1&resourceVersion=${now}&timeoutSeconds=-1`, 1), []);
    });
    it('refuses a timeoutSeconds or limit that is not an int64 with 400 and strconv\'s words', async () => {
      for (const [query, value] of [['watch=1&timeoutSeconds=soon', 'soon'], ['timeoutSeconds=1.5', '1.5'], ['limit=ten', 'ten'], ['limit=1e3', '1e3']]) {
        const res = await server.request(`${OTHER}?${query}`);
        assert.equal(res.status, 400, res.body);
        assert.equal(res.json().reason, 'BadRequest');
        assert.equal(res.json().message, `strconv.ParseInt: parsing "${value}": invalid syntax`);
      }
    });
  });
});

describe('resourceVersion after compaction', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--store-compaction-interval=1s']);
  });
  after(async () => server?.stop());

  it('answers 410 for compacted revisions and expired continue tokens, and an ERROR event for a watch', async () => {
    await createNamespace(server, 'old');
    const path = '/api/v1/namespaces/old/secrets';
    let first = 0;
    for (const name of ['a', 'b', 'c']) {
      const res = await server.request(path, { method: 'POST', body: { metadata: { name } } });
      first ||= Number(res.json().metadata.resourceVersion);
    }
    const page1 = (await server.request(`${path}?limit=1`)).json();
    // Keep writing so compaction has newer revisions to keep while it drops the old ones.
    let exact;
    for (let i = 0; i < 100; i++) {
      await server.request(path, { method: 'POST', body: { metadata: { name: `later${i}` } } });
      exact = await server.request(`${path}?resourceVersion=${first}&resourceVersionMatch=Exact`);
      if (exact.status === 410) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(exact!.status, 410, exact!.body);
    assert.equal(exact!.json().reason, 'Expired');
    const expired = await server.request(`${path}?limit=1&continue=${encodeURIComponent(page1.metadata.continue)}`);
    assert.equal(expired.status, 410);
    assert.match(expired.json().message, /^The provided continue parameter is too old to display a consistent list result\. You can start a new list without the continue parameter, or use the continue token in this response/);
    // The token it offers goes on from the same key at the latest revision (upstream's rv -1).
    const offered = expired.json().metadata.continue;
    assert.deepEqual(JSON.parse(Buffer.from(offered, 'base64url').toString()), { v: 'meta.k8s.io/v1', rv: -1, start: JSON.parse(Buffer.from(page1.metadata.continue, 'base64url').toString()).start });
    const rest = await server.request(`${path}?limit=500&continue=${encodeURIComponent(offered)}`);
    assert.equal(rest.status, 200, rest.body);
    const names = rest.json().items.map((i: { metadata: { name: string } }) => i.metadata.name);
    assert.ok(!names.includes('a') && names.includes('b') && names.includes('later0'), names.join(','));
    assert.ok(Number(rest.json().metadata.resourceVersion) > first, 'read at the latest revision');
    const events = await watchEvents(server, `${path}?watch=1&resourceVersion=${first}`, 1);
    assert.equal(events[0].type, 'ERROR');
    assert.equal(events[0].object.code, 410);
    assert.equal(events[0].object.reason, 'Expired');
  });
});

function assertInvalid(res: { status: number; json(): any; body: string }): void {
  assert.equal(res.status, 422, res.body);
  assert.equal(res.json().reason, 'Invalid');
  assert.equal(res.json().details.kind, 'ListOptions');
}

function assertTooLarge(res: { status: number; json(): any; headers: Record<string, unknown>; body: string }): void {
  assert.equal(res.status, 504, res.body);
  assert.equal(res.headers['retry-after'], '1');
  assert.match(res.json().message, /^Timeout: Too large resource version: \d+, current: \d+$/);
  assert.equal(res.json().details.causes[0].reason, 'ResourceVersionTooLarge');
}

/** Reads `count` events from a watch, then closes it. */
function watchEvents(server: TestServer, path: string, count: number): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const events: any[] = [];
    let buffer = '';
    const req = httpsRequest(
      { host: '127.0.0.1', port: server.port, path, ...credentialsOf(server.kubeconfig), agent: false },
      (res) => {
        if (res.statusCode !== 200) {
          let body = '';
          res.on('data', (d: Buffer) => (body += d));
          res.on('end', () => resolve([{ type: 'HTTP', status: res.statusCode, object: JSON.parse(body) }]));
          return;
        }
        res.on('data', (d: Buffer) => {
          buffer += d.toString();
          let nl;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + 1);
            if (line.trim() === '') continue;
            events.push(JSON.parse(line));
            if (events.length === count) {
              req.destroy();
              resolve(events);
            }
          }
        });
        res.on('end', () => resolve(events));
      },
    );
    req.on('error', (err) => (events.length >= count ? undefined : reject(err)));
    req.setTimeout(15_000, () => {
      req.destroy();
      resolve(events);
    });
    req.end();
  });
}
