/**
 * The benchmark's lean chunked-body reader (bench/e2e/chunked-body.ts): the bytes of a chunked
 * body, split at every possible point, decode to the same data and one 'end'.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ChunkedBody } from '../../bench/e2e/chunked-body.js';

function decode(parts: readonly Buffer[]): { data: string; ended: number; errors: string[] } {
  const body = new ChunkedBody(() => undefined);
  let data = '';
  let ended = 0;
  const errors: string[] = [];
  body.on('data', (b: Buffer) => (data += b.toString('latin1')));
  body.on('end', () => ended++);
  body.on('error', (err: Error) => errors.push(err.message));
  for (const part of parts) body.feed(part);
  return { data, ended, errors };
}

const EVENT = '{"type":"ADDED","seq":"1"}\n';
const WIRE = Buffer.from(`5\r\nhello\r\n${EVENT.length.toString(16)};ext=1\r\n${EVENT}\r\n0\r\nTrailer: x\r\n\r\n`, 'latin1');
const DATA = `hello${EVENT}`;

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
});
