import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { breakdownRule, covers, type PolicyRule } from '../../../src/auth/rbac/covers.js';

const pods = (verbs: string[], extra: Partial<PolicyRule> = {}): PolicyRule => ({ apiGroups: [''], resources: ['pods'], verbs, ...extra });

describe('covers', () => {
  const cases: Array<{ name: string; owner: PolicyRule[]; servant: PolicyRule[]; uncovered: PolicyRule[] }> = [
    { name: 'the same rule', owner: [pods(['get'])], servant: [pods(['get'])], uncovered: [] },
    { name: 'nothing wanted', owner: [], servant: [], uncovered: [] },
    { name: 'nothing held', owner: [], servant: [pods(['get'])], uncovered: [pods(['get'])] },
    {
      name: 'a verb missing, reported as its atom',
      owner: [pods(['get'])],
      servant: [pods(['get', 'list'])],
      uncovered: [pods(['list'])],
    },
    { name: 'verbs spread over several held rules', owner: [pods(['get']), pods(['list'])], servant: [pods(['get', 'list'])], uncovered: [] },
    { name: 'any verb', owner: [pods(['*'])], servant: [pods(['delete', 'escalate'])], uncovered: [] },
    { name: 'a wanted * verb needs a held *', owner: [pods(['get', 'list'])], servant: [pods(['*'])], uncovered: [pods(['*'])] },
    {
      name: 'any group',
      owner: [{ apiGroups: ['*'], resources: ['deployments'], verbs: ['get'] }],
      servant: [{ apiGroups: ['apps', 'extensions'], resources: ['deployments'], verbs: ['get'] }],
      uncovered: [],
    },
    {
      name: 'another group',
      owner: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }],
      servant: [{ apiGroups: ['apps', 'extensions'], resources: ['deployments'], verbs: ['get'] }],
      uncovered: [{ apiGroups: ['extensions'], resources: ['deployments'], verbs: ['get'] }],
    },
    { name: 'any resource', owner: [{ apiGroups: [''], resources: ['*'], verbs: ['get'] }], servant: [pods(['get']), pods(['get'], { resources: ['pods/log'] })], uncovered: [] },
    { name: 'the resource does not hold its subresource', owner: [pods(['get'])], servant: [pods(['get'], { resources: ['pods/log'] })], uncovered: [pods(['get'], { resources: ['pods/log'] })] },
    { name: '*/subresource', owner: [pods(['update'], { resources: ['*/status'] })], servant: [pods(['update'], { resources: ['pods/status', 'nodes/status'] })], uncovered: [] },
    { name: '*/subresource is not another subresource', owner: [pods(['get'], { resources: ['*/status'] })], servant: [pods(['get'], { resources: ['pods/log'] })], uncovered: [pods(['get'], { resources: ['pods/log'] })] },
    { name: 'held without names covers named', owner: [pods(['get'])], servant: [pods(['get'], { resourceNames: ['a', 'b'] })], uncovered: [] },
    {
      name: 'held names cover only those names',
      owner: [pods(['get'], { resourceNames: ['a'] })],
      servant: [pods(['get'], { resourceNames: ['a', 'b'] })],
      uncovered: [pods(['get'], { resourceNames: ['b'] })],
    },
    { name: 'held names never cover all objects', owner: [pods(['get'], { resourceNames: ['a'] })], servant: [pods(['get'])], uncovered: [pods(['get'])] },
    { name: 'empty resourceNames want all objects', owner: [pods(['get'], { resourceNames: ['a'] })], servant: [pods(['get'], { resourceNames: [] })], uncovered: [pods(['get'])] },
    { name: 'exact URL', owner: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }], servant: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }], uncovered: [] },
    { name: 'URL prefix', owner: [{ nonResourceURLs: ['/apis/*'], verbs: ['get'] }], servant: [{ nonResourceURLs: ['/apis/apps', '/apis/'], verbs: ['get'] }], uncovered: [] },
    { name: 'URL prefix is not its parent', owner: [{ nonResourceURLs: ['/apis/*'], verbs: ['get'] }], servant: [{ nonResourceURLs: ['/apis'], verbs: ['get'] }], uncovered: [{ nonResourceURLs: ['/apis'], verbs: ['get'] }] },
    { name: 'all trailing stars go', owner: [{ nonResourceURLs: ['/api**'], verbs: ['get'] }], servant: [{ nonResourceURLs: ['/apis/x'], verbs: ['get'] }], uncovered: [] },
    { name: 'any URL', owner: [{ nonResourceURLs: ['*'], verbs: ['*'] }], servant: [{ nonResourceURLs: ['/metrics', '/x/y'], verbs: ['get', 'post'] }], uncovered: [] },
    {
      name: 'a resource rule does not cover a URL',
      owner: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
      servant: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
      uncovered: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
    },
    { name: 'a URL rule does not cover a resource', owner: [{ nonResourceURLs: ['*'], verbs: ['*'] }], servant: [pods(['get'])], uncovered: [pods(['get'])] },
    {
      name: 'a rule of both kinds splits into both kinds of atoms',
      owner: [pods(['get'])],
      servant: [{ apiGroups: [''], resources: ['pods'], nonResourceURLs: ['/x'], verbs: ['get'] }],
      uncovered: [{ nonResourceURLs: ['/x'], verbs: ['get'] }],
    },
    { name: 'a rule without groups grants nothing, so wants nothing', owner: [], servant: [{ resources: ['pods'], verbs: ['get'] }], uncovered: [] },
    { name: 'cluster-admin covers everything', owner: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }], servant: [pods(['*'], { resourceNames: ['x'] }), { nonResourceURLs: ['/a'], verbs: ['get'] }], uncovered: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(covers(c.owner, c.servant), { covered: c.uncovered.length === 0, uncovered: c.uncovered });
    });
  }

  it('changes neither argument', () => {
    const owner = [pods(['get'])];
    const servant = [pods(['get', 'list'], { resourceNames: ['a'] })];
    const before = structuredClone([owner, servant]);
    covers(owner, servant);
    assert.deepEqual([owner, servant], before);
  });
});

describe('breakdownRule', () => {
  it('splits group × resource × verb × name, then URL × verb, in that order', () => {
    const rule: PolicyRule = { apiGroups: ['', 'apps'], resources: ['a'], verbs: ['get', 'list'], resourceNames: ['n'], nonResourceURLs: ['/u'] };
    assert.deepEqual(breakdownRule(rule), [
      { apiGroups: [''], resources: ['a'], verbs: ['get'], resourceNames: ['n'] },
      { apiGroups: [''], resources: ['a'], verbs: ['list'], resourceNames: ['n'] },
      { apiGroups: ['apps'], resources: ['a'], verbs: ['get'], resourceNames: ['n'] },
      { apiGroups: ['apps'], resources: ['a'], verbs: ['list'], resourceNames: ['n'] },
      { nonResourceURLs: ['/u'], verbs: ['get'] },
      { nonResourceURLs: ['/u'], verbs: ['list'] },
    ]);
  });
});
