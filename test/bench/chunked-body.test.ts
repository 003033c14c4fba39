/**
 * The benchmark's lean chunked-body reader (bench/e2e/chunked-body.ts): the bytes of a chunked
 * body, split at every possible point, decode to the same data and one 'end'; and the GET that
 * reads one from a real TLS server, body bytes in the same read as the headers included.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSecureContext } from 'node:tls';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ChunkedBody, getChunked } from '../../bench/e2e/chunked-body.js';
import { makeCeilingCertificates } from '../../bench/e2e/test-certificates.js';

function decode(parts: readonly Buffer[]): { data: string; ended: number; errors: string[] } {
  const body = new ChunkedBody(() => undefined);
  let data = '';
  let ended = 0;
  const errors: string[] = [];
  body.on('data', (b: Buffer) => (data += b.toString('latin1')));
  body.on('end', () => ended++);
  body.on('error', (err: Error) => errors.push(err.message));
  body.resume();
  for (const part of parts) body.feed(part);
  return { data, ended, errors };
}

const EVENT = '{"type":"ADDED","seq":"1"}\n';
const WIRE = Buffer.from(`5\r\nhello\r\n${EVENT.length.toString(16)};ext=1\r\n${EVENT}\r\n0\r\nTrailer: x\r\n\r\n`, 'latin1');
const DATA = `hello${EVENT}`;
/** A second body of the same framing and length, other bytes. */
const OTHER_WIRE = Buffer.from(WIRE.toString('latin1').replace('hello', 'HELLO').replace('"seq":"1"', '"seq":"2"'), 'latin1');
const OTHER_DATA = DATA.replace('hello', 'HELLO').replace('"seq":"1"', '"seq":"2"');

describe('ChunkedBody', () => {
  it('decodes a body in one piece', () => {
    assert.deepEqual(decode([WIRE]), { data: DATA, ended: 1, errors: [] });
  });

  it('decodes the same whatever the reads split', () => {
    for (let i = 1; i < WIRE.length; i++) {
      for (const j of [i + 1, i + 3, WIRE.length]) {
        if (j > WIRE.length) continue;
        const parts = [WIRE.subarray(0, i), WIRE.subarray(i, j), WIRE.subarray(j)];
        assert.deepEqual(decode(parts), { data: DATA, ended: 1, errors: [] }, `split at ${i}, ${j}`);
      }
    }
  });

  it('decodes one byte at a time', () => {
    assert.deepEqual(decode([...WIRE].map((b) => Buffer.from([b]))), { data: DATA, ended: 1, errors: [] });
  });

  it('reports bad framing instead of guessing', () => {
    assert.deepEqual(decode([Buffer.from('zz\r\n')]).errors, ['watch response: bad chunk size']);
    assert.deepEqual(decode([Buffer.from('2\r\nabX')]).errors, ['watch response: chunk data not followed by CRLF']);
  });

  it('holds what arrives before resume(), as a Readable does', () => {
    const body = new ChunkedBody(() => undefined);
    body.feed(WIRE);
    body.connectionEnded();
    const seen: string[] = [];
    body.on('data', (b: Buffer) => seen.push(b.toString('latin1')));
    body.on('end', () => seen.push('end'));
    body.on('close', () => seen.push('close'));
    assert.deepEqual(seen, []);
    body.resume();
    assert.deepEqual(seen, ['hello', EVENT, 'end', 'close']);
  });
});

describe('getChunked', () => {
  let server: Server;
  let certs: Awaited<ReturnType<typeof makeCeilingCertificates>>;
  let port = 0;

  before(async () => {
    certs = await makeCeilingCertificates();
    server = createServer({ cert: certs.server.certPem, key: certs.server.keyPem }, (req, res) => {
      if (req.url === '/plain') return void res.writeHead(200, { 'Content-Length': '2' }).end('{}');
      if (req.url === '/missing') return void res.writeHead(404).end();
      // Headers and the first chunks in one write, as a server that does not flush headers alone sends them.
      const wire = req.url === '/other' ? OTHER_WIRE : WIRE;
      res.socket!.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${wire.toString('latin1')}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (path: string) => {
    const target = { name: 'test', host: '127.0.0.1', port, ca: certs.caPem };
    return getChunked(target, createSecureContext({ ca: certs.caPem }), path, {});
  };

  it('delivers body bytes that came with the headers once its reader resumes', async () => {
    const body = await get('/watch');
    let data = '';
    const ended = new Promise<void>((resolve) => body.on('end', resolve));
    body.on('data', (b: Buffer) => (data += b.toString('latin1')));
    body.resume();
    await ended;
    body.destroy();
    assert.equal(data, DATA);
  });

  it('holds what came before resume() as a copy, not a view of the read buffer the next read reuses', async () => {
    // Both watches' first bytes wait while the other's arrive into the same shared read buffer.
    const first = await get('/watch');
    const second = await get('/other');
    const read = (body: ChunkedBody) =>
      new Promise<string>((resolve) => {
        let data = '';
        body.on('data', (b: Buffer) => (data += b.toString('latin1')));
        body.on('end', () => resolve(data));
        body.resume();
      });
    try {
      assert.deepEqual(await Promise.all([read(first), read(second)]), [DATA, OTHER_DATA]);
    } finally {
      first.destroy();
      second.destroy();
    }
  });

  it('refuses an answer that is not 200, or not chunked', async () => {
    await assert.rejects(get('/missing'), /HTTP 404/);
    await assert.rejects(get('/plain'), /not chunked/);
  });
});
