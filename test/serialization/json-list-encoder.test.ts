import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeJsonList } from '../../src/serialization/json-list-encoder.js';
import { encodeJson } from '../../src/serialization/json-encode.js';
import { frameJsonWatchEvent } from '../../src/serialization/watch-frame.js';

async function collect(gen: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const c of gen) chunks.push(c);
  return chunks;
}

const text = (chunks: Uint8Array[]): string => Buffer.concat(chunks).toString('utf8');

function items(n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({ metadata: { name: `cm${i}`, namespace: 'golden' }, data: { k: 'v'.repeat(i % 50) } }));
}

const envelope = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '212', continue: 'abc' } };

describe('encodeJsonList', () => {
  const sizes = [0, 1, 3, 500];
  for (const n of sizes) {
    it(`matches encoding the whole list (${n} items)`, async () => {
      const list = items(n);
      const chunks = await collect(encodeJsonList(envelope, list.map((o) => encodeJson(o))));
      assert.equal(text(chunks), encodeJson({ ...envelope, items: list }).toString());
    });
    it(`pretty output matches indented encoding (${n} items)`, async () => {
      const list = items(n);
      const chunks = await collect(encodeJsonList(envelope, list.map((o) => encodeJson(o)), { pretty: true }));
      assert.equal(text(chunks), encodeJson({ ...envelope, items: list }, true).toString());
    });
  }

  it('writes "items":[] for an empty list and takes no items from the envelope', async () => {
    const chunks = await collect(encodeJsonList({ ...envelope, items: ['ignored'] }, []));
    assert.equal(text(chunks), '{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"212","continue":"abc"},"items":[]}\n');
  });

  it('handles an empty envelope', async () => {
    assert.equal(text(await collect(encodeJsonList({}, [Buffer.from('{}\n')]))), '{"items":[{}]}\n');
  });

  it('batches into chunks no larger than asked, except single large items', async () => {
    const list = items(400).map((o) => encodeJson(o));
    const big = Buffer.from(`{"big":"${'x'.repeat(5000)}"}`);
    const chunks = await collect(encodeJsonList(envelope, [...list.slice(0, 200), big, ...list.slice(200)], { chunkBytes: 4096 }));
    const total = chunks.reduce((n, c) => n + c.length, 0);
    assert.ok(chunks.every((c) => c.length <= 4096 || c === big), 'only the big item exceeds a chunk');
    assert.ok(chunks.includes(big), 'the big item passes through without a copy');
    assert.ok(chunks.length <= Math.ceil(total / 4096) + 3, `${chunks.length} chunks for ${total} bytes`);
  });

  it('reads items from an async iterable', async () => {
    async function* source(): AsyncGenerator<Uint8Array> {
      for (const o of items(3)) yield encodeJson(o);
    }
    assert.equal(text(await collect(encodeJsonList(envelope, source()))), encodeJson({ ...envelope, items: items(3) }).toString());
  });

  it('escapes the envelope as Go does', async () => {
    const chunks = await collect(encodeJsonList({ metadata: { continue: '<&>' } }, []));
    assert.equal(text(chunks), '{"metadata":{"continue":"\\u003c\\u0026\\u003e"},"items":[]}\n');
  });
});

describe('encodeJson', () => {
  it('ends compact output with a newline and escapes HTML as Go does', () => {
    assert.equal(encodeJson({ a: '<b>&\u2028' }).toString(), '{"a":"\\u003cb\\u003e\\u0026\\u2028"}\n');
  });
  it('escapes each of the characters Go escapes, alone anywhere in the text', () => {
    const escaped: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };
    for (const [ch, escape] of Object.entries(escaped)) {
      assert.equal(encodeJson({ [`k${ch}`]: `${ch}x${ch}` }).toString(), `{"k${escape}":"${escape}x${escape}"}\n`, JSON.stringify(ch));
    }
    assert.equal(encodeJson({ a: 'plain text, caf\u00e9' }).toString(), '{"a":"plain text, caf\u00e9"}\n');
  });
  it('indents pretty output without a final newline', () => {
    assert.equal(encodeJson({ a: [1], b: {}, c: [] }, true).toString(), '{\n  "a": [\n    1\n  ],\n  "b": {},\n  "c": []\n}');
  });
});

describe('frameJsonWatchEvent', () => {
  it('frames shared object bytes as upstream does', () => {
    const object = encodeJson({ kind: 'ConfigMap', apiVersion: 'v1', data: { a: 'b' } });
    assert.equal(frameJsonWatchEvent('ADDED', object).toString(), '{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","data":{"a":"b"}}}\n');
    assert.equal(object.toString().endsWith('\n'), true, 'the shared bytes are untouched');
  });
  it('frames bookmarks', () => {
    assert.equal(frameJsonWatchEvent('BOOKMARK', Buffer.from('{"metadata":{"resourceVersion":"5"}}')).toString(), '{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"5"}}}\n');
  });
});
