/** --goaway-chance's filter on a real HTTP/2 connection, with the dice loaded. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { withProbabilisticGoaway } from '../../src/server/filters/goaway.js';
import type { RequestContext } from '../../src/server/request-context.js';

describe('probabilistic GOAWAY', () => {
  it('sends GOAWAY when the draw is under the chance, and lets the stream that drew it finish', async () => {
    const draws = [0.5, 0.01];
    const handler = withProbabilisticGoaway(async (ctx) => void ctx.res.end('ok'), { goawayChance: 0.02, random: () => draws.shift()! });
    const server = createServer((req, res) => void handler({ req, res } as unknown as RequestContext));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const session = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    let goaway = false;
    session.on('goaway', () => (goaway = true));
    const get = () => new Promise<string>((resolve, reject) => {
      const stream = session.request({ ':path': '/' });
      let body = '';
      stream.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve(body)).on('error', reject);
    });
    try {
      assert.equal(await get(), 'ok');
      assert.equal(goaway, false, 'a draw of 0.5 is over 0.02');
      assert.equal(await get(), 'ok', 'the stream that drew GOAWAY still gets its answer');
      assert.equal(goaway, true);
      assert.equal(draws.length, 0);
    } finally {
      session.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('is not there at a chance of 0', () => {
    const handler = async () => undefined;
    assert.equal(withProbabilisticGoaway(handler, { goawayChance: 0 }), handler);
  });
});
