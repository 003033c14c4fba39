/**
 * The benchmark's lean keep-alive client (bench/e2e/http1-connection.ts, and the closed-loop
 * HTTP/1.1 sender over it) against a real node:https server: bodies framed by Content-Length, by
 * chunks and by the close; requests with bodies; many requests on one connection; a connection
 * the server closes; and broken framing reported, never guessed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSecureContext } from 'node:tls';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Http1Connection } from '../../bench/e2e/http1-connection.js';
import { openSender } from '../../bench/e2e/senders.js';
import { makeCeilingCertificates } from '../../bench/e2e/test-certificates.js';
import type { Target } from '../../bench/e2e/target.js';

/** Larger than a socket's read buffer (64 KiB) and than a TLS record, so it takes many reads. */
const BIG = 300 * 1024;

/** BIG bytes that differ from offset to offset (period 251, prime to every read size) and by seed. */
function bigBody(seed: number): Buffer {
  const body = Buffer.alloc(BIG);
  for (let i = 0; i < BIG; i++) body[i] = (i + seed) % 251;
  return body;
}

describe('Http1Connection', () => {
  let server: Server;
  let target: Target;
  const connections = new Set<unknown>();

  before(async () => {
    const certs = await makeCeilingCertificates();
    server = createServer({ cert: certs.server.certPem, key: certs.server.keyPem }, (req, res) => {
      connections.add(req.socket);
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d: string) => (body += d));
      req.on('end', () => {
        switch (req.url) {
          case '/echo':
            return void res.writeHead(201, { 'Content-Length': String(Buffer.byteLength(body)) }).end(body);
          case '/chunked':
            res.writeHead(200, { 'Content-Type': 'text/plain' });
            res.write('abc');
            return void setImmediate(() => res.end('defg'));
          case '/big':
            // A body of many reads, its bytes different at every offset and on every connection.
            return void res.writeHead(200, { 'Content-Length': String(BIG) }).end(bigBody(Number(req.headers['x-seed'])));
          case '/empty':
            return void res.writeHead(204).end();
          case '/slow':
            return void setTimeout(() => res.writeHead(200, { 'Content-Length': '0' }).end(), 200);
          case '/close':
            return void res.writeHead(200, { Connection: 'close', 'Content-Length': '2' }).end('ok');
          case '/to-the-close':
            // No length and no chunks: the body runs to the end of the connection.
            return void req.socket.end('HTTP/1.1 200 OK\r\n\r\nuntil the end');
          case '/bad-chunk':
            return void req.socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n');
          case '/not-http':
            return void req.socket.write('SSH-2.0-OpenSSH\r\n\r\n');
          default:
            return void res.writeHead(404, { 'Content-Length': '0' }).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    target = { name: 'test', host: '127.0.0.1', port: (server.address() as AddressInfo).port, ca: certs.caPem };
  });
  after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const open = () => Http1Connection.open(target, createSecureContext({ ca: target.ca }));

  it('sends bodies and reads every framing, one connection for all', async () => {
    const before = connections.size;
    const c = await open();
    const echoed = await c.request({ method: 'POST', path: '/echo', body: '{"größe":1}' }, Infinity);
    assert.equal(echoed.status, 201);
    assert.equal(echoed.body!.toString('utf8'), '{"größe":1}');
    const chunked = await c.request({ method: 'GET', path: '/chunked' }, Infinity);
    assert.deepEqual([chunked.status, chunked.body!.toString()], [200, 'abcdefg']);
    const empty = await c.request({ method: 'DELETE', path: '/empty' }, 0);
    assert.deepEqual([empty.status, empty.bytes], [204, 0]);
    const missing = await c.request({ method: 'GET', path: '/nowhere' }, 0);
    assert.equal(missing.status, 404);
    assert.equal(c.usable, true);
    assert.equal(connections.size - before, 1);
    c.close();
  });

  it('keeps bodies whole while other connections read into the same read buffer', async () => {
    // Every connection of the process reads into one shared buffer: a body kept as views of it
    // would come back overwritten by the other connection's bytes.
    const [a, b] = await Promise.all([open(), open()]);
    try {
      const [ra, rb] = await Promise.all([
        a.request({ method: 'GET', path: '/big', headers: { 'X-Seed': '1' } }, Infinity),
        b.request({ method: 'GET', path: '/big', headers: { 'X-Seed': '2' } }, Infinity),
      ]);
      assert.ok(ra.body!.equals(bigBody(1)), 'the first body as sent');
      assert.ok(rb.body!.equals(bigBody(2)), 'the second body as sent');
    } finally {
      a.close();
      b.close();
    }
  });

  it('counts bytes without keeping them when not asked', async () => {
    const c = await open();
    const reply = await c.request({ method: 'POST', path: '/echo', body: Buffer.from('12345') }, 0);
    assert.deepEqual(reply, { status: 201, bytes: 5 });
    c.close();
  });

  it('keeps only the head of a body when asked for its first bytes', async () => {
    const c = await open();
    const chunked = await c.request({ method: 'GET', path: '/chunked' }, 5);
    assert.deepEqual([chunked.bytes, chunked.body!.toString()], [7, 'abcde'], 'all bytes counted, the first 5 kept, across chunks');
    const whole = await c.request({ method: 'POST', path: '/echo', body: 'xy' }, 5);
    assert.deepEqual([whole.bytes, whole.body!.toString()], [2, 'xy']);
    c.close();
  });

  it('stops reusing a connection the server closes', async () => {
    const c = await open();
    const reply = await c.request({ method: 'GET', path: '/close' }, Infinity);
    assert.deepEqual([reply.status, reply.body!.toString()], [200, 'ok']);
    assert.equal(c.usable, false);
    await assert.rejects(c.request({ method: 'GET', path: '/echo' }, 0), /closed/);
  });

  it('reads a body without length or chunks to the close', async () => {
    const c = await open();
    const reply = await c.request({ method: 'GET', path: '/to-the-close' }, Infinity);
    assert.deepEqual([reply.status, reply.body!.toString()], [200, 'until the end']);
  });

  it('reports broken framing and answers that are not HTTP', async () => {
    await assert.rejects((await open()).request({ method: 'GET', path: '/bad-chunk' }, 0), /bad chunk size/);
    await assert.rejects((await open()).request({ method: 'GET', path: '/not-http' }, 0), /not an HTTP\/1.1 response/);
  });

  it('serves concurrent clients over at most their number of connections, replacing closed ones', async () => {
    const before = connections.size;
    const sender = await openSender(target, 'http/1.1', 4);
    try {
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => sender.send({ method: 'POST', path: i % 5 === 0 ? '/close' : '/echo', body: String(i) }, true)));
      assert.deepEqual(replies.map((r) => r.status), Array.from({ length: 20 }, (_, i) => (i % 5 === 0 ? 200 : 201)));
      assert.deepEqual(replies.map((r) => r.body!.toString()), Array.from({ length: 20 }, (_, i) => (i % 5 === 0 ? 'ok' : String(i))));
      // Four closed by the server and replaced, never more than four open at once.
      assert.ok(connections.size - before <= 8, `${connections.size - before} connections`);
    } finally {
      sender.close();
    }
  });

  it('fails the requests still in flight or waiting for a connection when closed', async () => {
    const sender = await openSender(target, 'http/1.1', 1);
    const inFlight = assert.rejects(sender.send({ method: 'GET', path: '/slow' }, false), /closed/);
    const waiting = assert.rejects(sender.send({ method: 'GET', path: '/slow' }, false), /the sender was closed/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    sender.close();
    await Promise.all([inFlight, waiting]);
  });
});
