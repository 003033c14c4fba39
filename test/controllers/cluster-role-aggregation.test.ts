/**
 * aggregatedRules: which roles an aggregationRule picks and in what order their rules are gathered.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  aggregatedRules,
  InvalidAggregationRuleError,
  isAggregated,
  sameRules,
  type StoredRule,
} from '../../src/controllers/cluster-role-aggregation.js';
import type { KubeObject } from '../../src/registry/object.js';

function rule(verb: string, resource = 'pods'): StoredRule {
  return { apiGroups: [''], resources: [resource], verbs: [verb] };
}

function role(name: string, labels: Record<string, string>, rules: StoredRule[]): KubeObject {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name, labels }, rules };
}

function aggregating(name: string, ...clusterRoleSelectors: object[]): KubeObject {
  return { metadata: { name }, aggregationRule: { clusterRoleSelectors }, rules: [] };
}

const cases: { name: string; role: KubeObject; others: KubeObject[]; want: StoredRule[] }[] = [
  {
    name: 'matchLabels picks the roles carrying every label',
    role: aggregating('agg', { matchLabels: { team: 'a', tier: 'web' } }),
    others: [
      role('both', { team: 'a', tier: 'web' }, [rule('get')]),
      role('one', { team: 'a' }, [rule('list')]),
      role('other', { team: 'b', tier: 'web' }, [rule('watch')]),
    ],
    want: [rule('get')],
  },
  {
    name: 'matchExpressions: In, NotIn, Exists and DoesNotExist',
    role: aggregating('agg', {
      matchExpressions: [
        { key: 'team', operator: 'In', values: ['a', 'b'] },
        { key: 'tier', operator: 'NotIn', values: ['db'] },
        { key: 'owned', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    }),
    others: [
      role('picked', { team: 'b', tier: 'web', owned: '' }, [rule('get')]),
      role('no-tier', { team: 'a', owned: 'yes' }, [rule('list')]),
      role('db', { team: 'a', tier: 'db', owned: '' }, [rule('create')]),
      role('unowned', { team: 'a' }, [rule('delete')]),
      role('legacy', { team: 'a', owned: '', legacy: 'true' }, [rule('patch')]),
      role('team-c', { team: 'c', owned: '' }, [rule('update')]),
    ],
    // Visited by name: no-tier before picked.
    want: [rule('list'), rule('get')],
  },
  {
    name: 'a role matching any of the selectors is picked; each selector visits its roles by name',
    role: aggregating('agg', { matchLabels: { second: 'true' } }, { matchLabels: { first: 'true' } }),
    others: [
      role('a-first', { first: 'true' }, [rule('get')]),
      role('z-second', { second: 'true' }, [rule('list')]),
      role('m-second', { second: 'true' }, [rule('watch')]),
    ],
    want: [rule('watch'), rule('list'), rule('get')],
  },
  {
    name: 'a rule seen before is dropped, also when it differs only by an empty list',
    role: aggregating('agg', { matchLabels: { x: 'y' } }),
    others: [
      role('b', { x: 'y' }, [rule('get'), { ...rule('list'), resourceNames: [] }, rule('watch')]),
      role('a', { x: 'y' }, [rule('list'), rule('get')]),
      role('c', { x: 'y' }, [rule('list', 'secrets'), rule('watch')]),
    ],
    want: [rule('list'), rule('get'), rule('watch'), rule('list', 'secrets')],
  },
  {
    name: 'the role itself is never picked, even when its labels match',
    role: { ...aggregating('agg', { matchLabels: { x: 'y' } }), metadata: { name: 'agg', labels: { x: 'y' } }, rules: [rule('delete')] },
    others: [role('other', { x: 'y' }, [rule('get')])],
    want: [rule('get')],
  },
  {
    name: 'an empty selector picks every other role',
    role: aggregating('agg', {}),
    others: [role('b', {}, [rule('list')]), role('a', { any: 'thing' }, [rule('get')])],
    want: [rule('get'), rule('list')],
  },
  {
    name: 'no selectors, no rules',
    role: aggregating('agg'),
    others: [role('a', {}, [rule('get')])],
    want: [],
  },
];

for (const c of cases) {
  test(c.name, () => {
    // The role's own (stale) copy is among "all", as the controller passes every role it knows.
    assert.deepEqual(aggregatedRules(c.role, [...c.others, c.role]), c.want);
  });
}

test('the inputs are not changed', () => {
  const others = [role('b', { x: 'y' }, [rule('get')]), role('a', { x: 'y' }, [rule('get')])];
  const before = structuredClone(others);
  aggregatedRules(aggregating('agg', { matchLabels: { x: 'y' } }), others);
  assert.deepEqual(others, before);
});

test('a role without an aggregationRule keeps its own rules', () => {
  const plain = role('plain', {}, [rule('get')]);
  assert.equal(isAggregated(plain), false);
  assert.deepEqual(aggregatedRules(plain, [role('a', {}, [rule('list')])]), [rule('get')]);
});

test('a malformed selector is refused, naming what is wrong', () => {
  const bad = aggregating('agg', { matchExpressions: [{ key: 'x', operator: 'Equals', values: ['y'] }] });
  assert.throws(() => aggregatedRules(bad, []), (err: unknown) => {
    assert.ok(err instanceof InvalidAggregationRuleError);
    assert.match(err.message, /aggregationRule\.clusterRoleSelectors\[0\]\.matchExpressions\[0\]\.operator/);
    return true;
  });
});

test('rule lists are the same when they differ only by absent, null or empty fields; order counts', () => {
  assert.ok(sameRules([{ verbs: ['get'], resourceNames: [], nonResourceURLs: null }], [{ verbs: ['get'] }]));
  assert.ok(!sameRules([rule('get'), rule('list')], [rule('list'), rule('get')]));
  assert.ok(!sameRules([rule('get')], []));
});
