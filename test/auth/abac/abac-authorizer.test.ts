/**
 * ABAC decisions and rules, table-driven from upstream's cases (pkg/auth/authorizer/abac): the same
 * policies, in v0 and in v1beta1 form, and the same requests.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AbacAuthorizer } from '../../../src/auth/abac/abac-authorizer.js';
import { decodePolicyLine } from '../../../src/auth/abac/abac-policy.js';
import type { AuthorizationAttributes } from '../../../src/auth/authorizer.js';
import type { UserInfo } from '../../../src/auth/user-info.js';

const authorizerOf = (lines: string): AbacAuthorizer =>
  new AbacAuthorizer(lines.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#')).map((l) => decodePolicyLine(l).spec));

const user = (name: string, groups: string[] = ['system:authenticated']): UserInfo => ({ name, groups });
const ANONYMOUS: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

interface Case {
  readonly who: UserInfo;
  readonly verb: string;
  readonly resource?: string;
  readonly ns?: string;
  readonly group?: string;
  readonly path?: string;
  readonly allow: boolean;
}

/** As upstream's tests: a request names a namespace or a resource exactly when it is a resource request. */
const attributesOf = (c: Case): AuthorizationAttributes => ({
  user: c.who,
  verb: c.verb,
  isResourceRequest: (c.ns ?? '') !== '' || (c.resource ?? '') !== '',
  path: c.path ?? '',
  namespace: c.ns ?? '',
  apiGroup: c.group ?? '',
  apiVersion: 'v1',
  resource: c.resource ?? '',
  subresource: '',
  name: '',
});

const check = (authorizer: AbacAuthorizer, cases: readonly Case[]) => {
  for (const c of cases) {
    const result = authorizer.authorize(attributesOf(c));
    assert.equal(result.decision, c.allow ? 'allow' : 'no-opinion', JSON.stringify(c));
    if (!c.allow) assert.equal(result.reason, 'No policy matched.');
  }
};

const [scheduler, alice, chuck] = [user('scheduler'), user('alice'), user('chuck')];

describe('ABAC v0 policies', () => {
  const abac = authorizerOf(`{                    "readonly": true, "resource": "events"   }
    {"user":"scheduler", "readonly": true, "resource": "pods"     }
    {"user":"scheduler",                   "resource": "bindings" }
    {"user":"kubelet",   "readonly": true, "resource": "bindings" }
    {"user":"kubelet",                     "resource": "events"   }
    {"user":"alice",                                              "namespace": "projectCaribou"}
    {"user":"bob",       "readonly": true,                        "namespace": "projectCaribou"}`);

  it('decide as upstream', () =>
    check(abac, [
      { who: scheduler, verb: 'list', resource: 'pods', ns: 'ns1', allow: true },
      { who: scheduler, verb: 'list', resource: 'pods', allow: true },
      { who: scheduler, verb: 'create', resource: 'pods', ns: 'ns1', allow: false },
      { who: scheduler, verb: 'get', resource: 'bindings', ns: 'ns1', allow: true },
      { who: alice, verb: 'update', resource: 'widgets', ns: 'projectCaribou', allow: true },
      { who: alice, verb: 'update', resource: 'foo', ns: 'projectCaribou', group: 'bar', allow: true },
      { who: alice, verb: 'get', resource: 'pods', ns: 'ns1', allow: false },
      { who: chuck, verb: 'get', resource: 'events', ns: 'ns1', allow: true },
      { who: chuck, verb: 'update', resource: 'events', ns: 'ns1', allow: false },
      { who: chuck, verb: 'get', resource: 'pods', ns: 'ns1', allow: false },
      { who: chuck, verb: 'get', path: '/', allow: false },
      // v0's "everyone" is every authenticated user, not the anonymous one.
      { who: ANONYMOUS, verb: 'get', resource: 'events', ns: 'ns1', allow: false },
    ]));

  it('leave a rule without namespace or resource open to every non-resource path', () => {
    check(authorizerOf('{"user":"admin"}'), [
      { who: user('admin'), verb: 'post', path: '/anything', allow: true },
      { who: user('admin'), verb: 'delete', resource: 'pods', ns: 'x', group: 'apps', allow: true },
    ]);
  });
});

describe('ABAC v1beta1 policies', () => {
  const p = (spec: object) => JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });
  const abac = authorizerOf([
    '# Comment line, after a blank line',
    '',
    p({ user: '*', readonly: true, nonResourcePath: '/api' }),
    p({ user: '*', nonResourcePath: '/custom' }),
    p({ user: '*', nonResourcePath: '/root/*' }),
    p({ user: 'noresource', nonResourcePath: '*' }),
    p({ user: '*', readonly: true, resource: 'events', namespace: '*' }),
    p({ user: 'scheduler', readonly: true, resource: 'pods', namespace: '*' }),
    p({ user: 'scheduler', resource: 'bindings', namespace: '*' }),
    p({ user: 'alice', resource: '*', namespace: 'projectCaribou' }),
    p({ user: 'debbie', resource: 'pods', namespace: 'projectCaribou' }),
    p({ user: 'apigroupuser', resource: '*', namespace: 'projectAnyGroup', apiGroup: '*' }),
    p({ user: 'apigroupuser', resource: '*', namespace: 'projectEmptyGroup', apiGroup: '' }),
    p({ user: 'apigroupuser', resource: '*', namespace: 'projectXGroup', apiGroup: 'x' }),
    p({ group: 'system:unauthenticated', readonly: true, nonResourcePath: '/public/*' }),
  ].join('\n'));
  const [noresource, apigroupuser] = [user('noresource'), user('apigroupuser')];

  it('decide as upstream', () =>
    check(abac, [
      { who: scheduler, verb: 'list', resource: 'pods', ns: 'ns1', allow: true },
      { who: scheduler, verb: 'create', resource: 'pods', allow: false },
      { who: alice, verb: 'update', resource: 'widgets', ns: 'projectCaribou', allow: true },
      { who: alice, verb: 'get', resource: 'pods', ns: 'ns1', allow: false },
      { who: user('debbie'), verb: 'update', resource: 'pods', ns: 'projectCaribou', allow: true },
      { who: chuck, verb: 'get', resource: 'events', ns: 'ns1', allow: true },
      { who: chuck, verb: 'update', resource: 'events', ns: 'ns1', allow: false },
      { who: chuck, verb: 'get', path: '/', allow: false },
      { who: chuck, verb: 'get', path: '/api', allow: true },
      { who: chuck, verb: 'create', path: '/api', allow: false },
      { who: chuck, verb: 'update', path: '/custom', allow: true },
      { who: chuck, verb: 'get', path: '/root', allow: false },
      { who: chuck, verb: 'get', path: '/root/', allow: true },
      { who: chuck, verb: 'get', path: '/root/test/1/2/3', allow: true },
      { who: noresource, verb: 'get', path: '', allow: true },
      { who: noresource, verb: 'get', path: '/foo/bar/baz', allow: true },
      { who: noresource, verb: 'get', path: '/', ns: 'bar', allow: false },
      { who: apigroupuser, verb: 'get', group: 'x', resource: 'foo', ns: 'projectAnyGroup', allow: true },
      { who: apigroupuser, verb: 'get', group: 'x', resource: 'foo', ns: 'projectEmptyGroup', allow: false },
      { who: apigroupuser, verb: 'get', group: 'x', resource: 'foo', ns: 'projectXGroup', allow: true },
      // "*" means every authenticated user; the unauthenticated group must be named.
      { who: ANONYMOUS, verb: 'get', path: '/api', allow: false },
      { who: ANONYMOUS, verb: 'get', path: '/public/x', allow: true },
    ]));

  it('list rules as upstream: per namespace, read-only verbs for readonly policies', () => {
    // Upstream compares a policy's namespace even for its path: path rules list only without one.
    assert.deepEqual(abac.rulesFor(scheduler, 'ns1').nonResourceRules, []);
    assert.deepEqual(abac.rulesFor(scheduler, ''), {
      resourceRules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['events'] },
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['*'], apiGroups: [''], resources: ['bindings'] },
      ],
      nonResourceRules: [
        { verbs: ['get', 'list', 'watch'], nonResourceURLs: ['/api'] },
        { verbs: ['*'], nonResourceURLs: ['/custom'] },
        { verbs: ['*'], nonResourceURLs: ['/root/*'] },
      ],
      incomplete: false,
    });
    assert.deepEqual(abac.rulesFor(alice, 'projectCaribou').resourceRules.at(-1), { verbs: ['*'], apiGroups: [''], resources: ['*'] });
    assert.equal(abac.rulesFor(alice, 'other').resourceRules.length, 1, 'only the events rule');
  });
});

describe('ABAC subjects', () => {
  const v1 = (spec: object) => decodePolicyLine(JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec: { ...spec, resource: '*', namespace: '*', apiGroup: '*' } })).spec;
  const table: Array<{ name: string; spec: object; who: UserInfo; match: boolean }> = [
    { name: 'a policy naming no one matches no one', spec: {}, who: user('foo'), match: false },
    { name: 'user names are case-sensitive', spec: { user: 'Foo' }, who: user('foo'), match: false },
    { name: 'user names match whole', spec: { user: 'Foo' }, who: user('FooBar'), match: false },
    { name: 'a group matches a member', spec: { group: 'B' }, who: user('x', ['A', 'B']), match: true },
    { name: 'groups match whole', spec: { group: 'B' }, who: user('x', ['BBB']), match: false },
    { name: 'user and group must both match', spec: { user: 'x', group: 'B' }, who: user('x', ['A']), match: false },
    { name: 'user "*" is every authenticated user', spec: { user: '*' }, who: user('x'), match: true },
    { name: 'group "*" leaves out the anonymous user', spec: { group: '*' }, who: ANONYMOUS, match: false },
  ];
  for (const { name, spec, who, match } of table) {
    it(name, () => assert.equal(new AbacAuthorizer([v1(spec)]).authorize(attributesOf({ who, verb: 'get', resource: 'pods', ns: 'a', allow: match })).decision, match ? 'allow' : 'no-opinion'));
  }
});
