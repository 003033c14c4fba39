/**
 * The audit policy: reading it (both spellings of the group, YAML and JSON), upstream's checks and
 * words, and which rule decides a request's level, stages and managedFields.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAuditPolicy, parseAuditPolicy } from '../../src/audit/policy.js';
import { evaluateAuditPolicy, levelAtLeast } from '../../src/audit/policy-evaluator.js';
import type { AuthorizationAttributes } from '../../src/auth/authorizer.js';

function attrs(overrides: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes {
  return {
    user: { name: 'alice', groups: ['dev', 'system:authenticated'] },
    verb: 'get', isResourceRequest: true, path: '/api/v1/namespaces/ns/pods/p', namespace: 'ns', apiGroup: '', apiVersion: 'v1',
    resource: 'pods', subresource: '', name: 'p', ...overrides,
  };
}

const nonResource = (path: string, verb = 'get') => attrs({ isResourceRequest: false, path, verb, namespace: '', resource: '', name: '', apiVersion: '' });

function levelFor(rules: string, a: AuthorizationAttributes): string {
  return evaluateAuditPolicy(parseAuditPolicy(`apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n${rules}`), a).level;
}

describe('parseAuditPolicy', () => {
  it('reads YAML and JSON, in either spelling of the group', () => {
    const yaml = parseAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nomitManagedFields: true\nrules:\n- level: Metadata\n');
    assert.deepEqual(yaml.omitStages, ['RequestReceived']);
    assert.equal(yaml.omitManagedFields, true);
    assert.equal(yaml.rules[0]!.level, 'Metadata');
    const json = parseAuditPolicy(JSON.stringify({ apiVersion: 'audit.cluster.io/v1', kind: 'Policy', rules: [{ level: 'None', users: ['x'], unknownField: 1 }] }));
    assert.deepEqual(json.rules[0]!.users, ['x']);
  });

  it('refuses other kinds and versions, and a policy without rules', () => {
    assert.throws(() => parseAuditPolicy('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]\n'), { message: 'failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v1beta1"' });
    assert.throws(() => parseAuditPolicy('apiVersion: audit.k8s.io/v1\nrules: []\n'), { message: /^failed decoding: Object 'Kind' is missing in / });
    assert.throws(() => parseAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\n'), { message: 'loaded illegal policy with 0 rules' });
    assert.throws(() => parseAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: {level: None}\n'), { message: /^failed decoding: rules: expected a list/ });
  });

  it('checks rules with upstream\'s field errors, aggregated', () => {
    const check = (rules: string) => () => parseAuditPolicy(`apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n${rules}`);
    assert.throws(check('- level: Loud\n'), { message: 'rules[0].level: Unsupported value: "Loud": supported values: "Metadata", "None", "Request", "RequestResponse"' });
    assert.throws(check('- {}\n'), { message: 'rules[0].level: Required value' });
    assert.throws(check('- level: None\n  nonResourceURLs: [healthz, "/a*b"]\n'), {
      message: "[rules[0].nonResourceURLs[0]: Invalid value: \"healthz\": non-resource URL rules must begin with a '/' character, rules[0].nonResourceURLs[1]: Invalid value: \"/a*b\": non-resource URL wildcards '*' must be the final character of the rule]",
    });
    assert.throws(check('- level: None\n  nonResourceURLs: ["/x"]\n  namespaces: [ns]\n'), { message: 'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs' });
    assert.throws(check('- level: None\n  resources: [{group: rbac.authorization.k8s.io/v1, resources: [roles]}]\n'), { message: /^rules\[0\]\.resources\.group: Invalid value: "rbac\.authorization\.k8s\.io\/v1": a lowercase RFC 1123 subdomain/ });
    assert.throws(check('- level: None\n  resources: [{resourceNames: [a]}]\n'), { message: 'rules[0].resources.resourceNames: Invalid value: []string{"a"}: using resourceNames requires at least one resource' });
    assert.throws(check('- level: None\n  omitStages: [Done]\n'), { message: 'rules[0].omitStages[0]: Invalid value: "Done": allowed stages are Panic,RequestReceived,ResponseComplete,ResponseStarted' });
  });
});

describe('loadAuditPolicy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-policy-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names the file in its errors', () => {
    const empty = join(dir, 'empty.yaml');
    writeFileSync(empty, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n');
    assert.throws(() => loadAuditPolicy(empty), { message: `loaded illegal policy with 0 rules: from file ${empty}` });
    assert.throws(() => loadAuditPolicy(join(dir, 'absent.yaml')), { message: new RegExp(`^failed to read file path "${dir}/absent\\.yaml": ENOENT`) });
  });
});

describe('evaluateAuditPolicy', () => {
  it('takes the first matching rule, and None when none matches', () => {
    assert.equal(levelFor('- level: Request\n  users: [alice]\n- level: Metadata\n', attrs()), 'Request');
    assert.equal(levelFor('- level: Request\n  users: [bob]\n- level: Metadata\n', attrs()), 'Metadata');
    assert.equal(levelFor('- level: Request\n  users: [bob]\n', attrs()), 'None');
  });

  it('matches users, groups and verbs', () => {
    assert.equal(levelFor('- level: Metadata\n  userGroups: [ops, dev]\n', attrs()), 'Metadata');
    assert.equal(levelFor('- level: Metadata\n  userGroups: [ops]\n', attrs()), 'None');
    assert.equal(levelFor('- level: Metadata\n  verbs: [list, get]\n', attrs()), 'Metadata');
    assert.equal(levelFor('- level: Metadata\n  verbs: [create]\n', attrs()), 'None');
  });

  it('matches namespaces and resources on resource requests only', () => {
    assert.equal(levelFor('- level: Metadata\n  namespaces: [ns]\n', attrs()), 'Metadata');
    assert.equal(levelFor('- level: Metadata\n  namespaces: [""]\n', attrs({ namespace: '', resource: 'nodes' })), 'Metadata', 'cluster-scoped is ""');
    assert.equal(levelFor('- level: Metadata\n  namespaces: [ns]\n', nonResource('/healthz')), 'None');
    assert.equal(levelFor('- level: Metadata\n  resources: [{group: ""}]\n', attrs()), 'Metadata', 'a group alone: all of it');
    assert.equal(levelFor('- level: Metadata\n  resources: [{group: apps}]\n', attrs()), 'None');
    assert.equal(levelFor('- level: Metadata\n  resources: [{resources: ["*"]}]\n', attrs()), 'Metadata');
    assert.equal(levelFor('- level: Metadata\n  resources: [{resources: [pods], resourceNames: [q]}]\n', attrs()), 'None');
    assert.equal(levelFor('- level: Metadata\n  resources: [{resources: [pods], resourceNames: [p]}]\n', attrs()), 'Metadata');
  });

  it('matches subresources as pods/log, */log and pods/*', () => {
    const log = attrs({ subresource: 'log' });
    assert.equal(levelFor('- level: Metadata\n  resources: [{resources: [pods]}]\n', log), 'None', 'pods does not cover pods/log');
    assert.equal(levelFor('- level: Metadata\n  resources: [{resources: [pods/log]}]\n', log), 'Metadata');
    assert.equal(levelFor('- level: Metadata\n  resources: [{resources: ["*/log"]}]\n', log), 'Metadata');
    assert.equal(levelFor('- level: Metadata\n  resources: [{resources: ["pods/*"]}]\n', log), 'Metadata');
    assert.equal(levelFor('- level: Metadata\n  resources: [{resources: ["*/status"]}]\n', log), 'None');
  });

  it('matches non-resource URLs exactly, by a trailing *, or all with *', () => {
    assert.equal(levelFor('- level: Metadata\n  nonResourceURLs: [/healthz]\n', nonResource('/healthz')), 'Metadata');
    assert.equal(levelFor('- level: Metadata\n  nonResourceURLs: [/healthz]\n', nonResource('/healthz/ping')), 'None');
    assert.equal(levelFor('- level: Metadata\n  nonResourceURLs: ["/healthz*"]\n', nonResource('/healthz/ping')), 'Metadata');
    assert.equal(levelFor('- level: Metadata\n  nonResourceURLs: ["*"]\n', nonResource('/version')), 'Metadata');
    assert.equal(levelFor('- level: Metadata\n  nonResourceURLs: ["*"]\n', attrs()), 'None', 'never a resource request');
  });

  it('joins the policy\'s omitted stages with the rule\'s, and lets the rule decide on managedFields', () => {
    const policy = parseAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nomitManagedFields: true\nrules:\n- level: Request\n  verbs: [get]\n  omitStages: [ResponseStarted, RequestReceived]\n  omitManagedFields: false\n- level: Metadata\n');
    assert.deepEqual(evaluateAuditPolicy(policy, attrs()), { level: 'Request', omitStages: ['RequestReceived', 'ResponseStarted'], omitManagedFields: false });
    assert.deepEqual(evaluateAuditPolicy(policy, attrs({ verb: 'list' })), { level: 'Metadata', omitStages: ['RequestReceived'], omitManagedFields: true });
  });

  it('orders levels by what they record', () => {
    assert.ok(levelAtLeast('RequestResponse', 'Request'));
    assert.ok(levelAtLeast('Metadata', 'Metadata'));
    assert.ok(!levelAtLeast('None', 'Metadata'));
  });
});
