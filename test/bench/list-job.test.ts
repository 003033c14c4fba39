/**
 * The benchmark's list job against a real node:https server that pages: the untimed run counts
 * every item, timed runs follow continue tokens from each page's head alone, even when the page is
 * far longer than the head kept.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { runList } from '../../bench/e2e/list-job.js';
import { makeCeilingCertificates } from '../../bench/e2e/test-certificates.js';
import type { Target } from '../../bench/e2e/target.js';

/** Three pages: items 0-1 (token "p2"), 2-3 (token "p3"), 4; every item far longer than a page head. */
const PAGES: Record<string, { continue?: string; items: number[] }> = {
  '': { continue: 'p2', items: [0, 1] },
  p2: { continue: 'p3', items: [2, 3] },
  p3: { items: [4] },
};
const FILLER = 'x'.repeat(10_000);

describe('list job', () => {
  let server: Server;
  let target: Target;
  const seen: string[] = [];

  before(async () => {
    const certs = await makeCeilingCertificates();
    server = createServer({ cert: certs.server.certPem, key: certs.server.keyPem }, (req, res) => {
      const url = new URL(req.url!, 'https://x');
      seen.push(`${url.searchParams.get('limit')}:${url.searchParams.get('continue') ?? ''}`);
      const page = PAGES[url.searchParams.get('continue') ?? ''];
      if (!page) return void res.writeHead(410).end();
      const metadata = page.continue ? { continue: page.continue } : {};
      // Chunked, as a server streams a list.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(`{"kind":"ConfigMapList","metadata":${JSON.stringify(metadata)},"items":[`);
      res.end(`${page.items.map((n) => JSON.stringify({ n, filler: FILLER })).join(',')}]}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    target = { name: 'test', host: '127.0.0.1', port: (server.address() as AddressInfo).port, ca: certs.caPem };
  });
  after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('counts the items once, then times runs that follow every continue token', async () => {
    seen.length = 0;
    const result = await runList({ kind: 'list', target, path: '/list', pageSize: 2, runs: 2 });
    assert.equal(result.pages, 3);
    assert.equal(result.items, 5);
    assert.ok(result.bytes > 5 * FILLER.length);
    assert.equal(result.runsMs.length, 2);
    assert.deepEqual(seen, Array(3).fill(['2:', '2:p2', '2:p3']).flat(), 'the counting run and both timed runs read all three pages');
  });

  it('lists in one page without a page size', async () => {
    seen.length = 0;
    const result = await runList({ kind: 'list', target, path: '/list', runs: 1 });
    assert.deepEqual([result.pages, result.items], [1, 2]);
    assert.deepEqual(seen, ['null:', 'null:']);
  });
});
