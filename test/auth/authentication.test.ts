import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ANONYMOUS_USER, authenticateRequest, type Authenticator } from '../../src/auth/authenticator.js';
import { BearerTokenAuthenticator, bearerToken } from '../../src/auth/bearer-token-authenticator.js';
import type { Request } from '../../src/server/request-context.js';

const req = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } }) as unknown as Request;
const accept = (name: string, groups: string[] = []): Authenticator => ({ authenticate: () => ({ outcome: 'authenticated', user: { name, groups } }) });
const reject: Authenticator = { authenticate: () => ({ outcome: 'rejected', reason: 'bad' }) };
const nothing: Authenticator = { authenticate: () => ({ outcome: 'no-credentials' }) };

describe('authenticateRequest', () => {
  const table: Array<{ name: string; chain: Authenticator[]; anonymous: boolean; want: unknown }> = [
    { name: 'first success wins and gains system:authenticated', chain: [nothing, accept('alice', ['dev'])], anonymous: true, want: { user: { name: 'alice', groups: ['dev', 'system:authenticated'] } } },
    { name: 'success beats an earlier rejection', chain: [reject, accept('bob')], anonymous: false, want: { user: { name: 'bob', groups: ['system:authenticated'] } } },
    { name: 'a rejection is final even with anonymous on', chain: [reject, nothing], anonymous: true, want: { reasons: ['bad'] } },
    { name: 'no credentials and anonymous on', chain: [nothing], anonymous: true, want: { user: ANONYMOUS_USER } },
    { name: 'no credentials and anonymous off', chain: [nothing], anonymous: false, want: { reasons: [] } },
  ];
  for (const c of table) {
    it(c.name, async () => assert.deepEqual(await authenticateRequest(req(), c.chain, c.anonymous), c.want));
  }
});

describe('bearer tokens', () => {
  const table: Array<[string | undefined, string | undefined]> = [
    [undefined, undefined],
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['Basic dXNlcjpwYXNz', undefined],
    ['Bearer', undefined],
    ['Bearer ', undefined],
  ];
  for (const [header, token] of table) {
    it(`parses ${JSON.stringify(header)}`, () => assert.equal(bearerToken(header), token));
  }

  it('rejects a token no token authenticator knows, accepts a known one', async () => {
    const authenticator = new BearerTokenAuthenticator([{ authenticateToken: (t) => (t === 'good' ? { name: 'svc', groups: [] } : undefined) }]);
    assert.deepEqual(await authenticator.authenticate(req('Bearer nope')), { outcome: 'rejected', reason: 'invalid bearer token' });
    assert.deepEqual(await authenticator.authenticate(req('Bearer good')), { outcome: 'authenticated', user: { name: 'svc', groups: [] } });
    assert.deepEqual(await authenticator.authenticate(req()), { outcome: 'no-credentials' });
  });
});
