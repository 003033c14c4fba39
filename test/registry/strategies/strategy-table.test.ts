import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GenericStrategy } from '../../../src/registry/strategies/generic-strategy.js';
import { NamespaceStrategy } from '../../../src/registry/strategies/namespace-strategy.js';
import { BUILTIN_NAME_VALIDATORS } from '../../../src/registry/strategies/strategy-deps.js';
import { created, strategy, testDeps } from './fixtures.js';

test('known types get their strategy, others the generic one', () => {
  assert.ok(strategy('', 'namespaces') instanceof NamespaceStrategy);
  const generic = strategy('', 'limitranges');
  assert.ok(generic instanceof GenericStrategy);
  assert.equal(generic.constructor, GenericStrategy);
});

test('name rules follow upstream per type', () => {
  const cases: [string, string, string, string[]][] = [
    ['', 'configmaps', 'a.b', []],
    ['', 'namespaces', 'a.b', ['label']],
    ['', 'services', '1abc', ['dns1035']],
    ['', 'services', 'abc', []],
    ['rbac.authorization.k8s.io', 'clusterroles', 'system:admin', []],
    ['rbac.authorization.k8s.io', 'roles', 'a/b', ['segment']],
    ['apps', 'deployments', 'A', ['subdomain']],
  ];
  for (const [group, resource, name, expected] of cases) {
    assert.deepEqual(strategy(group, resource).validateName(name, false), expected, `${group}/${resource} ${name}`);
  }
});

test('create on update follows upstream per type', () => {
  assert.equal(strategy('', 'services').allowCreateOnUpdate, true);
  assert.equal(strategy('rbac.authorization.k8s.io', 'roles').allowCreateOnUpdate, true);
  assert.equal(strategy('', 'configmaps').allowCreateOnUpdate, false);
  assert.equal(strategy('', 'pods').allowCreateOnUpdate, false);
});

test('the built-in validators answer in upstream words', () => {
  const s = strategy('', 'namespaces', testDeps({ validateName: BUILTIN_NAME_VALIDATORS }));
  assert.match(s.validateName('Bad_Name', false)[0] ?? '', /^a lowercase RFC 1123 label must consist of/);
  assert.deepEqual(strategy('rbac.authorization.k8s.io', 'roles', testDeps({ validateName: BUILTIN_NAME_VALIDATORS })).validateName('a/b', false), ["may not contain '/'"]);
});

test('a generateName is checked by the type\'s own rule for prefixes', () => {
  const roles = strategy('rbac.authorization.k8s.io', 'roles', testDeps({ validateName: BUILTIN_NAME_VALIDATORS }));
  assert.deepEqual(roles.validateName('.', false), ["may not be '.'"]);
  assert.deepEqual(roles.validateName('.', true), ["may not be '.'"], 'upstream holds an RBAC prefix to the full rule');
  assert.deepEqual(roles.validateName('a%', true), ["may not contain '%'"]);
  const csrs = strategy('certificates.k8s.io', 'certificatesigningrequests', testDeps({ validateName: BUILTIN_NAME_VALIDATORS }));
  assert.deepEqual([csrs.validateName('..', true), csrs.validateName('a/b', false)], [[], []], 'CSRs may be named anything');
  const configMaps = strategy('', 'configmaps', testDeps({ validateName: BUILTIN_NAME_VALIDATORS }));
  assert.deepEqual(configMaps.validateName('web-', true), [], 'a trailing dash is fine in a prefix');
  assert.equal(configMaps.validateName('web-', false).length, 1);
});

test('a strategy asks for its schema fields on its first create, not when made (a start makes every store)', () => {
  let asked = 0;
  const base = testDeps();
  const deps = testDeps({ schemaFields: (d) => (asked++, base.schemaFields(d)) });
  const deployments = strategy('apps', 'deployments', deps);
  assert.equal(asked, 0);
  const first = created(deployments, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'a' }, spec: {} });
  assert.equal(first.metadata?.generation, 1);
  assert.equal(asked, 1);
  created(deployments, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'b' }, spec: {} });
  assert.equal(asked, 1);
});
