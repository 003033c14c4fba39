/**
 * --oidc-* against the real server, with an OpenID Connect issuer this test runs (HTTPS, its own
 * CA): an ID token signed by the issuer's key authenticates with the claims the flags name; a token
 * for another client, an expired one, one without a required claim, one signed by a stranger, and
 * an unverified email are refused; a key the issuer rotates in is fetched when a token names it.
 * Bad flags are refused in upstream's words.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { CertificateAuthority } from '../../src/server/tls/certificate-authority.js';
import { MAIN, startServer, type TestServer } from './harness.js';

interface SigningKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly jwk: Record<string, unknown>;
}

function rsaKey(kid: string): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' } };
}

async function startIssuer() {
  const ca = await CertificateAuthority.create('oidc-ca', 1);
  const serving = await ca.issue({ commonName: 'oidc', subjectAltNames: ['127.0.0.1'], usage: 'server', validDays: 1 });
  const keys: SigningKey[] = [rsaKey('first')];
  let keyFetches = 0;
  let issuer = '';
  const server: Server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    if (req.url === '/.well-known/openid-configuration') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ issuer, jwks_uri: `${issuer}/keys` }));
    } else if (req.url === '/keys') {
      keyFetches++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: keys.map((k) => k.jwk) }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  const sign = (claims: Record<string, unknown>, key: SigningKey = keys[keys.length - 1]!) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: issuer, aud: 'capstan', iat: now, exp: now + 600, ...claims }).setProtectedHeader({ alg: 'RS256', kid: key.kid }).sign(key.privateKey);
  };
  return { issuer, caPem: ca.pem.certPem, keys, sign, keyFetches: () => keyFetches, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('--oidc-issuer-url', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-oidc-'));
  let oidc: Awaited<ReturnType<typeof startIssuer>>;
  let server: TestServer;
  const whoAmI = async (token: string) => {
    const res = await server.request('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      method: 'POST', anonymous: true, headers: { Authorization: `Bearer ${token}` }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    return res.status === 201 ? res.json().status.userInfo : res.status;
  };

  before(async () => {
    oidc = await startIssuer();
    writeFileSync(join(dir, 'oidc-ca.crt'), oidc.caPem);
    server = await startServer([
      '--oidc-issuer-url', oidc.issuer, '--oidc-client-id', 'capstan', '--oidc-ca-file', join(dir, 'oidc-ca.crt'),
      '--oidc-groups-claim', 'groups', '--oidc-groups-prefix', 'oidc:', '--oidc-required-claim', 'hd=example.com',
    ]);
  });
  after(async () => {
    await server?.stop();
    await oidc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('authenticates an ID token: the subject under the issuer\'s prefix, the groups under theirs', async () => {
    const user = await whoAmI(await oidc.sign({ sub: 'alice', groups: ['devs', 'ops'], hd: 'example.com' }));
    assert.deepEqual(user, { username: `${oidc.issuer}#alice`, groups: ['oidc:devs', 'oidc:ops', 'system:authenticated'] });
  });

  it('refuses another audience, an expired token, a missing required claim and a stranger\'s signature', async () => {
    const stranger = rsaKey('first');
    for (const token of [
      await oidc.sign({ sub: 'alice', hd: 'example.com', aud: 'someone-else' }),
      await oidc.sign({ sub: 'alice', hd: 'example.com', exp: Math.floor(Date.now() / 1000) - 3600 }),
      await oidc.sign({ sub: 'alice' }),
      await oidc.sign({ sub: 'alice', hd: 'example.com' }, stranger),
    ]) assert.equal(await whoAmI(token), 401);
  });

  it('fetches the keys again for a token signed by a key the issuer rotated in', async () => {
    const before = oidc.keyFetches();
    oidc.keys.push(rsaKey('second'));
    const user = await whoAmI(await oidc.sign({ sub: 'bob', hd: 'example.com' }));
    assert.equal(user.username, `${oidc.issuer}#bob`);
    assert.equal(oidc.keyFetches(), before + 1);
  });

  it('takes an email as the user name only when it is verified, without a prefix', async () => {
    const emailServer = await startServer(['--oidc-issuer-url', oidc.issuer, '--oidc-client-id', 'capstan', '--oidc-ca-file', join(dir, 'oidc-ca.crt'), '--oidc-username-claim', 'email']);
    try {
      const review = async (claims: Record<string, unknown>) => {
        const res = await emailServer.request('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
          method: 'POST', anonymous: true, headers: { Authorization: `Bearer ${await oidc.sign(claims)}` }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
        });
        return res.status === 201 ? res.json().status.userInfo.username : res.status;
      };
      assert.equal(await review({ sub: 'x', email: 'carol@example.com', email_verified: true }), 'carol@example.com');
      assert.equal(await review({ sub: 'x', email: 'carol@example.com', email_verified: false }), 401);
    } finally {
      await emailServer.stop();
    }
  });

  it('refuses bad flags in upstream\'s words', () => {
    const run = spawnSync(process.execPath, [MAIN, '--data-dir', join(dir, 'data'), '--secure-port', '0', '--oidc-issuer-url', 'http://example.com', '--oidc-signing-algs', 'HS256'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 1);
    for (const message of ['oidc-issuer-url and oidc-client-id must be specified together', 'oidc-issuer-url: URL scheme must be https', 'oidc-signing-algs: unsupported signing algorithm "HS256"']) {
      assert.ok(run.stderr.includes(message), run.stderr);
    }
  });
});

describe('--authentication-config', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-authn-config-'));
  let oidc: Awaited<ReturnType<typeof startIssuer>>;
  let server: TestServer;
  const config = (jwt: Record<string, unknown>) => ['apiVersion: apiserver.config.k8s.io/v1', 'kind: AuthenticationConfiguration', `jwt: [${JSON.stringify(jwt)}]`, ''].join('\n');
  const start = (...args: string[]) => spawnSync(process.execPath, [MAIN, '--data-dir', join(dir, 'data'), '--secure-port', '0', ...args], { encoding: 'utf8', timeout: 30_000 });

  before(async () => {
    oidc = await startIssuer();
    writeFileSync(join(dir, 'authn.yaml'), config({
      issuer: { url: oidc.issuer, audiences: ['other', 'capstan'], audienceMatchPolicy: 'MatchAny', certificateAuthority: oidc.caPem },
      claimValidationRules: [{ claim: 'hd', requiredValue: 'example.com' }],
      claimMappings: { username: { claim: 'email', prefix: '' }, groups: { claim: 'groups', prefix: 'g:' }, uid: { claim: 'sub' } },
    }));
    server = await startServer(['--authentication-config', join(dir, 'authn.yaml')]);
  });
  after(async () => {
    await server?.stop();
    await oidc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('authenticates by the file\'s issuer, audiences, rules and claim mappings', async () => {
    const review = async (claims: Record<string, unknown>) => {
      const res = await server.request('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
        method: 'POST', anonymous: true, headers: { Authorization: `Bearer ${await oidc.sign(claims)}` }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      });
      return res.status === 201 ? res.json().status.userInfo : res.status;
    };
    assert.deepEqual(await review({ sub: 'u-1', email: 'dave@example.com', email_verified: true, groups: 'devs', hd: 'example.com' }), {
      username: 'dave@example.com', uid: 'u-1', groups: ['g:devs', 'system:authenticated'],
    });
    assert.equal(await review({ sub: 'u-1', email: 'dave@example.com', hd: 'elsewhere.com' }), 401);
    assert.equal((await review({ sub: 'u-1', email: 'dave@example.com', hd: 'example.com', aud: 'other' })).username, 'dave@example.com');
  });

  it('refuses CEL expressions, missing fields and the OIDC flags beside it, naming them', () => {
    writeFileSync(join(dir, 'cel.yaml'), config({ issuer: { url: 'https://issuer.example', audiences: ['a'] }, claimMappings: { username: { expression: 'claims.sub' } } }));
    const cel = start('--authentication-config', join(dir, 'cel.yaml'));
    assert.equal(cel.status, 1);
    assert.match(cel.stderr, /jwt\[0\]\.claimMappings\.username\.expression: Unsupported value: CEL expressions are not supported/);
    writeFileSync(join(dir, 'bare.yaml'), config({ issuer: { url: 'https://issuer.example' }, claimMappings: { username: { claim: 'sub' } } }));
    const bare = start('--authentication-config', join(dir, 'bare.yaml'));
    assert.match(bare.stderr, /jwt\[0\]\.issuer\.audiences: Required value/);
    assert.match(bare.stderr, /jwt\[0\]\.claimMappings\.username\.prefix: Required value: prefix is required when claim is set/);
    const both = start('--authentication-config', join(dir, 'authn.yaml'), '--oidc-issuer-url', 'https://x', '--oidc-client-id', 'c');
    assert.match(both.stderr, /authentication-config file and oidc-\* flags are mutually exclusive/);
  });
});
