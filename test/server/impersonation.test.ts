/**
 * The impersonation filter on an in-process server: the Impersonate-* headers, the questions put to
 * the authorizer, upstream's 403 and 400 answers, the user the request goes on as, the headers
 * removed, and the audit event's impersonatedUser. Requests authenticate with test tokens; a test
 * authorizer allows every verb but `impersonate`, which it allows alice for some things only.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../../src/auth/authorizer.js';
import type { UserInfo } from '../../src/auth/user-info.js';
import { eventJson, type AuditEvent } from '../../src/audit/event.js';
import { legacyEventLine } from '../../src/audit/legacy-format.js';
import { defaultAuditOptions } from '../../src/cli/audit-options.js';
import { writeObject } from '../../src/server/write-response.js';
import { eventually } from '../eventually.js';
import { request, type TestResponse } from './test-client.js';
import { startTestServer, type TestServer } from './test-server.js';

const ALLOW: AuthorizationResult = { decision: 'allow', reason: '' };
const NO_OPINION: AuthorizationResult = { decision: 'no-opinion', reason: '' };

/** What alice may impersonate; bob may impersonate nothing. */
function aliceMay(a: AuthorizationAttributes): AuthorizationResult {
  if (a.user.name !== 'alice') return NO_OPINION;
  switch (a.resource) {
    case 'users':
      return a.name === 'root' ? { decision: 'deny', reason: 'root is off limits' } : ALLOW;
    case 'groups':
      return a.name === 'system:masters' ? NO_OPINION : ALLOW;
    case 'uids':
      return a.name === 'uid-1' ? ALLOW : NO_OPINION;
    case 'userextras':
      return ['scopes', 'example.com/team', 'almost%zzencoded'].includes(a.subresource) ? ALLOW : NO_OPINION;
    case 'serviceaccounts':
      return a.namespace === 'ns1' ? ALLOW : NO_OPINION;
    default:
      return NO_OPINION;
  }
}

/** Allows every verb but `impersonate`, which `rule` decides; answers at once or, when `later`, in a promise. */
class ImpersonationAuthorizer implements Authorizer {
  readonly asked: AuthorizationAttributes[] = [];
  constructor(
    private readonly rule: (a: AuthorizationAttributes) => AuthorizationResult,
    private readonly later: boolean,
  ) {}

  authorize(attributes: AuthorizationAttributes): AuthorizationResult | Promise<AuthorizationResult> {
    if (attributes.verb === 'impersonate') this.asked.push(attributes);
    const result = attributes.verb === 'impersonate' ? this.rule(attributes) : ALLOW;
    return this.later ? Promise.resolve(result) : result;
  }
}

const USERS: Record<string, UserInfo> = {
  'alice-token': { name: 'alice', groups: ['dev', 'system:authenticated'] },
  'bob-token': { name: 'bob', groups: ['system:authenticated'] },
};

type Headers = Record<string, string | string[]>;

/** What /whoami answers: the user the handler sees and the headers it got. */
interface Seen {
  user: UserInfo;
  headers: Record<string, string>;
  rawHeaders: string[];
}

interface Fixture {
  readonly t: TestServer;
  readonly authorizer: ImpersonationAuthorizer;
  /** A request by the token's user, over HTTP/2 unless `http1`. */
  as(token: string, headers?: Headers, http1?: boolean): Promise<TestResponse>;
}

async function startFixture(later: boolean, auditLog?: string, policyFile?: string): Promise<Fixture> {
  const authorizer = new ImpersonationAuthorizer(aliceMay, later);
  const audit = defaultAuditOptions();
  const t = await startTestServer({
    options: (o) => (auditLog ? { ...o, audit: { ...audit, policyFile, log: { ...audit.log, path: auditLog } } } : o),
    deps: { authorizer, tokenAuthenticators: [{ authenticateToken: (token) => USERS[token] }] },
    configure: (s) =>
      s.routes.add('/whoami', async (ctx) => writeObject(ctx, 200, { user: ctx.user, headers: ctx.req.headers, rawHeaders: ctx.req.rawHeaders })),
  });
  const as = (token: string, headers: Headers = {}, http1 = false): Promise<TestResponse> =>
    request({
      url: `${t.info.url}/whoami`,
      ca: t.info.tls.servingCaPem,
      // The client's type has one value per header; both Node clients send an array as repeated lines.
      headers: { authorization: `Bearer ${token}`, 'x-kept': 'yes', ...headers } as Record<string, string>,
      http1,
    });
  return { t, authorizer, as };
}

function seen(res: TestResponse): Seen {
  assert.equal(res.status, 200, res.body);
  return JSON.parse(res.body) as Seen;
}

function forbidden(message: string, details: Record<string, string>): object {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details, code: 403 };
}

function badRequest(message: string): object {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 };
}

for (const later of [false, true]) {
  describe(`impersonation, with an authorizer that answers ${later ? 'in a promise' : 'at once'}`, () => {
    let f: Fixture;
    before(async () => (f = await startFixture(later)));
    after(() => f.t.close());

    it('leaves a request without Impersonate-* headers alone, and asks nothing', async () => {
      f.authorizer.asked.length = 0;
      const s = seen(await f.as('alice-token', { 'impersonation-note': 'not one of them' }));
      assert.deepEqual(s.user, USERS['alice-token']);
      assert.equal(s.headers['impersonation-note'], 'not one of them');
      assert.deepEqual(f.authorizer.asked, []);
    });

    it('runs as the impersonated user when allowed, in system:authenticated, without the headers', async () => {
      f.authorizer.asked.length = 0;
      for (const http1 of [false, true]) {
        const s = seen(await f.as('alice-token', { 'Impersonate-User': 'carol' }, http1));
        assert.deepEqual(s.user, { name: 'carol', groups: ['system:authenticated'] });
        assert.equal(s.headers['impersonate-user'], undefined);
        assert.ok(!s.rawHeaders.some((h) => h.toLowerCase().startsWith('impersonate-')), `raw headers: ${s.rawHeaders.join(' ')}`);
        assert.equal(s.headers['x-kept'], 'yes');
        assert.ok(s.rawHeaders.includes('x-kept'));
      }
      assert.deepEqual(f.authorizer.asked[0], {
        user: USERS['alice-token'], verb: 'impersonate', isResourceRequest: true, path: '', namespace: '', subresource: '',
        apiGroup: '', apiVersion: '', resource: 'users', name: 'carol',
      });
    });

    it('refuses a user who may not impersonate with upstream\'s 403, reason appended when there is one', async () => {
      const bob = await f.as('bob-token', { 'Impersonate-User': 'carol' });
      assert.equal(bob.status, 403);
      assert.deepEqual(
        JSON.parse(bob.body),
        forbidden('users "carol" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope', { name: 'carol', kind: 'users' }),
      );
      const root = JSON.parse((await f.as('alice-token', { 'Impersonate-User': 'root' })).body) as { message: string };
      assert.equal(root.message, 'users "root" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope: root is off limits');
    });

    it('takes each Impersonate-Group line as a group, each one authorized', async () => {
      for (const http1 of [false, true]) {
        const s = seen(await f.as('alice-token', { 'Impersonate-User': 'carol', 'Impersonate-Group': ['g1', 'g2, g3'] }, http1));
        assert.deepEqual(s.user, { name: 'carol', groups: ['g1', 'g2, g3', 'system:authenticated'] });
      }
      const masters = await f.as('alice-token', { 'Impersonate-User': 'carol', 'Impersonate-Group': ['g1', 'system:masters'] });
      assert.deepEqual(
        JSON.parse(masters.body),
        forbidden('groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope', {
          name: 'system:masters',
          kind: 'groups',
        }),
      );
    });

    it('adds system:authenticated only when neither it nor system:unauthenticated was asked for', async () => {
      const cases: [string, string[], string[]][] = [
        ['carol', ['system:unauthenticated'], ['system:unauthenticated']],
        ['carol', ['g1', 'system:authenticated'], ['g1', 'system:authenticated']],
        ['system:anonymous', [], ['system:unauthenticated']],
        ['system:anonymous', ['system:unauthenticated'], ['system:unauthenticated']],
        ['system:anonymous', ['g1'], ['g1', 'system:unauthenticated']],
      ];
      for (const [user, groups, expected] of cases) {
        const s = seen(await f.as('alice-token', { 'Impersonate-User': user, ...(groups.length > 0 ? { 'Impersonate-Group': groups } : {}) }));
        assert.deepEqual(s.user.groups, expected, `${user} with ${groups.join(',')}`);
      }
    });

    it('sets the uid from Impersonate-Uid when allowed', async () => {
      assert.deepEqual(seen(await f.as('alice-token', { 'Impersonate-User': 'carol', 'Impersonate-Uid': 'uid-1' })).user, {
        name: 'carol',
        uid: 'uid-1',
        groups: ['system:authenticated'],
      });
      const other = await f.as('alice-token', { 'Impersonate-User': 'carol', 'Impersonate-Uid': 'uid-2' });
      assert.deepEqual(
        JSON.parse(other.body),
        forbidden(
          'uids.authentication.k8s.io "uid-2" is forbidden: User "alice" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
          { name: 'uid-2', group: 'authentication.k8s.io', kind: 'uids' },
        ),
      );
    });

    it('sets extras from Impersonate-Extra-<key>, keys lower-cased and %-decoded, values repeatable', async () => {
      const s = seen(
        await f.as('alice-token', {
          'Impersonate-User': 'carol',
          'Impersonate-Extra-Scopes': ['view', 'edit'],
          'Impersonate-Extra-Example.com%2FTeam': 'blue',
          'Impersonate-Extra-Almost%zzEncoded': 'kept',
        }),
      );
      assert.deepEqual(s.user.extra, { scopes: ['view', 'edit'], 'example.com/team': ['blue'], 'almost%zzencoded': ['kept'] });
      assert.ok(!Object.keys(s.headers).some((h) => h.startsWith('impersonate-')));
      const project = await f.as('alice-token', { 'Impersonate-User': 'carol', 'Impersonate-Extra-Project': 'p1' });
      assert.deepEqual(
        JSON.parse(project.body),
        forbidden(
          'userextras.authentication.k8s.io "p1" is forbidden: User "alice" cannot impersonate resource "userextras/project" in API group "authentication.k8s.io" at the cluster scope',
          { name: 'p1', group: 'authentication.k8s.io', kind: 'userextras' },
        ),
      );
    });

    it('impersonates a service account by its username, with its groups unless groups are given', async () => {
      f.authorizer.asked.length = 0;
      const s = seen(await f.as('alice-token', { 'Impersonate-User': 'system:serviceaccount:ns1:builder' }));
      assert.deepEqual(s.user, {
        name: 'system:serviceaccount:ns1:builder',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
      });
      assert.deepEqual(
        f.authorizer.asked.map((a) => [a.resource, a.namespace, a.name]),
        [['serviceaccounts', 'ns1', 'builder']],
      );
      const given = seen(await f.as('alice-token', { 'Impersonate-User': 'system:serviceaccount:ns1:builder', 'Impersonate-Group': 'g1' }));
      assert.deepEqual(given.user.groups, ['g1', 'system:authenticated']);
      const ns2 = await f.as('alice-token', { 'Impersonate-User': 'system:serviceaccount:ns2:builder' });
      assert.deepEqual(
        JSON.parse(ns2.body),
        forbidden('serviceaccounts "builder" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns2"', {
          name: 'builder',
          kind: 'serviceaccounts',
        }),
      );
      f.authorizer.asked.length = 0;
      const invalid = seen(await f.as('alice-token', { 'Impersonate-User': 'system:serviceaccount:NS1:builder' }));
      assert.deepEqual(invalid.user.groups, ['system:authenticated'], 'not a valid namespace: a plain user');
      assert.deepEqual(f.authorizer.asked.map((a) => [a.resource, a.name]), [['users', 'system:serviceaccount:NS1:builder']]);
    });

    it('refuses groups, extras or a uid without a user with upstream\'s 400', async () => {
      const group = await f.as('alice-token', { 'Impersonate-Group': 'g1' });
      assert.deepEqual(JSON.parse(group.body), badRequest('requested [{Group  g1    }] without impersonating a user'));
      const all = await f.as('alice-token', { 'Impersonate-Group': 'g1', 'Impersonate-Extra-Scopes': 'view', 'Impersonate-Uid': 'uid-1' });
      assert.equal(all.status, 400);
      assert.equal(
        (JSON.parse(all.body) as { message: string }).message,
        'requested [{Group  g1    } {UserExtra  view  authentication.k8s.io/v1  scopes} {UID  uid-1  authentication.k8s.io/v1  }] without impersonating a user',
      );
    });
  });
}

describe('impersonation in the audit event', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-impersonation-audit-'));
  const log = join(dir, 'audit.log');
  const policy = join(dir, 'policy.yaml');
  let f: Fixture;
  before(async () => {
    writeFileSync(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    f = await startFixture(false, log, policy);
  });
  after(async () => {
    await f.t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records the impersonated user beside the user, once the request has acted as it', async () => {
    const headers = { 'Impersonate-User': 'carol', 'Impersonate-Group': 'g1', 'Impersonate-Uid': 'uid-1', 'Impersonate-Extra-Scopes': 'view' };
    assert.equal((await f.as('alice-token', headers)).status, 200);
    const events = (): Record<string, unknown>[] =>
      existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>) : [];
    const mine = () => events().filter((e) => e['requestURI'] === '/whoami');
    await eventually('the request\'s events are in the log', () => mine().length === 2);
    const [received, complete] = mine();
    assert.equal(received!['impersonatedUser'], undefined, 'RequestReceived is recorded before impersonation');
    assert.deepEqual(complete!['user'], { username: 'alice', groups: ['dev', 'system:authenticated'] });
    assert.deepEqual(complete!['impersonatedUser'], { username: 'carol', uid: 'uid-1', groups: ['g1', 'system:authenticated'], extra: { scopes: ['view'] } });
    const keys = Object.keys(complete!);
    assert.equal(keys[keys.indexOf('user') + 1], 'impersonatedUser', 'upstream\'s place: right after user');
  });

  it('records no impersonated user for a refused impersonation', async () => {
    assert.equal((await f.as('bob-token', { 'Impersonate-User': 'dave' })).status, 403);
    const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('"username":"bob"')) : []);
    await eventually('bob\'s events are in the log', () => lines().some((l) => l.includes('"stage":"ResponseComplete"')));
    assert.ok(!lines().some((l) => l.includes('impersonatedUser')));
  });
});

describe('the impersonated user in written events', () => {
  const event: AuditEvent = {
    level: 'Metadata',
    auditID: 'a1',
    stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces',
    verb: 'list',
    user: { username: 'alice', groups: ['dev'] },
    impersonatedUser: { username: 'carol', groups: ['g1', 'system:authenticated'], extra: { b: ['2'], a: ['1'] } },
    sourceIPs: ['127.0.0.1'],
    requestReceivedTimestamp: '2026-11-28T08:00:00.123456Z',
    stageTimestamp: '2026-11-28T08:00:00.125000Z',
  };

  it('writes impersonatedUser right after user in JSON, empty fields left out, extras sorted', () => {
    assert.match(
      eventJson(event, 'audit.k8s.io/v1'),
      /"user":\{"username":"alice","groups":\["dev"\]\},"impersonatedUser":\{"username":"carol","groups":\["g1","system:authenticated"\],"extra":\{"a":\["1"\],"b":\["2"\]\}\},"sourceIPs"/,
    );
  });

  it('names it in the legacy line\'s as= and asgroups=', () => {
    assert.match(legacyEventLine(event), / user="alice" groups="\\"dev\\"" as="carol" asgroups="\\"g1\\",\\"system:authenticated\\"" /);
    assert.match(legacyEventLine({ ...event, impersonatedUser: undefined }), / as="<self>" asgroups="<lookup>" /);
  });
});
