/**
 * The audit policy: reading it (both spellings of the group, YAML and JSON), the words upstream's
 * reader refuses a document with at each step (kind, Go types, validation, no rules, unreadable
 * file), and which rule decides a request's level, omitted stages and managedFields.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAuditPolicy, parseAuditPolicy, type AuditLevel } from '../../src/audit/policy.js';
import { AuditPolicyEvaluator, evaluateAuditPolicy, levelAtLeast } from '../../src/audit/policy-evaluator.js';
import type { AuthorizationAttributes } from '../../src/auth/authorizer.js';

const HEAD = 'apiVersion: audit.k8s.io/v1\nkind: Policy\n';
const SCHEME = 'in scheme "k8s.io/apiserver/pkg/audit/scheme.go:30"';

function attrs(overrides: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes {
  return {
    user: { name: 'alice', groups: ['dev', 'system:authenticated'] },
    verb: 'get', isResourceRequest: true, path: '/api/v1/namespaces/ns/pods/p', namespace: 'ns', apiGroup: '', apiVersion: 'v1',
    resource: 'pods', subresource: '', name: 'p', ...overrides,
  };
}

const nonResource = (path: string) => attrs({ isResourceRequest: false, path, namespace: '', resource: '', name: '', apiVersion: '' });

describe('parseAuditPolicy reads', () => {
  const expected = {
    rules: [
      { level: 'None', users: [], userGroups: [], verbs: [], resources: [], namespaces: [], nonResourceURLs: ['/healthz*'], omitStages: [] },
      {
        level: 'RequestResponse', users: ['tim'], userGroups: ['testers'], verbs: ['patch'],
        resources: [{ group: '', resources: [], resourceNames: [] }, { group: 'rbac.authorization.k8s.io', resources: ['roles'], resourceNames: ['r'] }],
        namespaces: ['default', ''], nonResourceURLs: [], omitStages: ['Panic'], omitManagedFields: false,
      },
    ],
    omitStages: ['RequestReceived'],
    omitManagedFields: true,
  };
  const body = 'omitStages: [RequestReceived]\nomitManagedFields: true\nrules:\n- level: None\n  nonResourceURLs: ["/healthz*"]\n'
    + '- level: RequestResponse\n  users: [tim]\n  userGroups: [testers]\n  verbs: [patch]\n  resources:\n  - group: ""\n'
    + '  - {group: rbac.authorization.k8s.io, resources: [roles], resourceNames: [r]}\n  namespaces: [default, ""]\n  omitStages: [Panic]\n  omitManagedFields: false\n';
  const json = (apiVersion: string) => JSON.stringify({ apiVersion, kind: 'Policy', ...expected });

  for (const [name, text] of [
    ['YAML as audit.k8s.io/v1', `${HEAD}${body}`],
    ['YAML as audit.cluster.io/v1', `apiVersion: audit.cluster.io/v1\nkind: Policy\n${body}`],
    ['JSON as audit.k8s.io/v1', json('audit.k8s.io/v1')],
    ['JSON as audit.cluster.io/v1', json('audit.cluster.io/v1')],
  ] as const) {
    it(name, () => assert.deepEqual(parseAuditPolicy(text), expected));
  }

  it('unknown and repeated fields (upstream falls back to lenient decoding), a missing kind, null values', () => {
    const policy = parseAuditPolicy('apiVersion: audit.k8s.io/v1\nmetadata: {name: x}\nomitStages: null\nrules:\n- level: None\n  level: Metadata\n  verbz: [get]\n  omitManagedFields: null\n');
    assert.deepEqual(policy, { rules: [{ level: 'Metadata', users: [], userGroups: [], verbs: [], resources: [], namespaces: [], nonResourceURLs: [], omitStages: [] }], omitStages: [], omitManagedFields: false });
  });
});

describe('parseAuditPolicy refuses', () => {
  const cases: readonly [string, string, string | RegExp][] = [
    ['an old version', 'apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]\n', `failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v1beta1" ${SCHEME}`],
    ['an old version, other spelling', 'apiVersion: audit.cluster.io/v1alpha1\nkind: Policy\n', `failed decoding: no kind "Policy" is registered for version "audit.cluster.io/v1alpha1" ${SCHEME}`],
    ['an unknown kind', `apiVersion: audit.k8s.io/v1\nkind: Rule\n`, `failed decoding: no kind "Rule" is registered for version "audit.k8s.io/v1" ${SCHEME}`],
    ['another audit kind', `apiVersion: audit.cluster.io/v1\nkind: Event\n`, 'failed decoding: converting (v1.Event) to (audit.Policy): unknown conversion'],
    ['a kind every version knows', `apiVersion: example.com/v1\nkind: Status\n`, 'failed decoding: converting (v1.Status) to (audit.Policy): unknown conversion'],
    ['no apiVersion', 'kind: Policy\nrules: [{level: None}]\n', 'unknown group version field audit.k8s.io/__internal, Kind=Policy in policy'],
    ['an empty document', '', 'unknown group version field audit.k8s.io/__internal, Kind=Policy in policy'],
    ['no apiVersion, another kind', 'kind: Rule\n', `failed decoding: no kind "Rule" is registered for the internal version of group "audit.k8s.io" ${SCHEME}`],
    ['a group without version', 'apiVersion: example.com/\nkind: Policy\n', "failed decoding: Object 'apiVersion' is missing in 'apiVersion: example.com/\nkind: Policy\n'"],
    ['an apiVersion with two slashes', 'apiVersion: a/b/c\n', 'failed decoding: unexpected GroupVersion string: a/b/c'],
    ['a list', '- level: None\n', `failed decoding: couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`],
    ['a number as kind', `apiVersion: audit.k8s.io/v1\nkind: 1\n`, "failed decoding: couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string"],
    ['text that is not YAML', `${HEAD}rules: [a\n`, /^failed decoding: yaml: line 4: /],
    ['rules as an object', `${HEAD}rules: {level: None}\n`, 'failed decoding: json: cannot unmarshal object into Go struct field Policy.rules of type []v1.PolicyRule'],
    ['a rule as a string', `${HEAD}rules: [None]\n`, 'failed decoding: json: cannot unmarshal string into Go struct field Policy.rules of type v1.PolicyRule'],
    ['a number as level', `${HEAD}rules: [{level: 1}]\n`, 'failed decoding: json: cannot unmarshal number into Go struct field PolicyRule.rules.level of type v1.Level'],
    ['a YAML 1.1 boolean as user', `${HEAD}rules: [{level: None, users: [yes]}]\n`, 'failed decoding: json: cannot unmarshal bool into Go struct field PolicyRule.rules.users of type string'],
    ['a number as group', `${HEAD}rules: [{level: None, resources: [{group: 5}]}]\n`, 'failed decoding: json: cannot unmarshal number into Go struct field GroupResources.rules.resources.group of type string'],
    ['a string as omitManagedFields', `${HEAD}rules: [{level: None, omitManagedFields: "true"}]\n`, 'failed decoding: json: cannot unmarshal string into Go struct field PolicyRule.rules.omitManagedFields of type bool'],
    ['a string as omitStages', `${HEAD}omitStages: Panic\n`, 'failed decoding: json: cannot unmarshal string into Go struct field Policy.omitStages of type []v1.Stage'],
    ['a string as metadata', `${HEAD}metadata: x\n`, 'failed decoding: json: cannot unmarshal string into Go struct field Policy.metadata of type v1.ObjectMeta'],
    ['the first mistyped value, in document order', `${HEAD}rules: [{verbs: [1], level: 2}]\nomitStages: 3\n`, 'failed decoding: json: cannot unmarshal number into Go struct field PolicyRule.rules.verbs of type string'],
    ['no rules', HEAD, 'loaded illegal policy with 0 rules'],
    ['empty rules', `${HEAD}rules: []\n`, 'loaded illegal policy with 0 rules'],
    ['an unsupported level', `${HEAD}rules: [{level: Loud}]\n`, 'rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse"'],
    ['a rule without level', `${HEAD}rules: [{verbs: [get]}, null]\n`, '[rules[0].level: Required value, rules[1].level: Required value]'],
    ['a URL without its slash, a * inside a URL', `${HEAD}rules: [{level: None, nonResourceURLs: ["*", healthz, "/a*b", "a*"]}]\n`,
      "[rules[0].nonResourceURLs[1]: Invalid value: \"healthz\": non-resource URL rules must begin with a '/' character, "
      + "rules[0].nonResourceURLs[2]: Invalid value: \"/a*b\": non-resource URL wildcards '*' must be the final character of the rule, "
      + "rules[0].nonResourceURLs[3]: Invalid value: \"a*\": non-resource URL rules must begin with a '/' character]"],
    ['URLs with namespaces', `${HEAD}rules: [{level: None, nonResourceURLs: ["/x", "/a&b"], namespaces: [ns]}]\n`,
      'rules[0].nonResourceURLs: Invalid value: ["/x","/a\\u0026b"]: rules cannot apply to both regular resources and non-resource URLs'],
    ['URLs with resources', `${HEAD}rules: [{level: None, nonResourceURLs: ["/x"], resources: [{group: ""}]}]\n`,
      'rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs'],
    ['a group with its version', `${HEAD}rules: [{level: None, resources: [{group: ""}, {group: rbac.authorization.k8s.io/v1}]}]\n`,
      'rules[0].resources.group: Invalid value: "rbac.authorization.k8s.io/v1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')'],
    ['a * group (allowed from 1.36)', `${HEAD}rules: [{level: None, resources: [{group: "*"}]}]\n`, /^rules\[0\]\.resources\.group: Invalid value: "\*": a lowercase RFC 1123 subdomain/],
    ['resource names without resources', `${HEAD}rules: [{level: None, resources: [{resourceNames: [a]}]}]\n`, 'rules[0].resources.resourceNames: Invalid value: ["a"]: using resourceNames requires at least one resource'],
    ['an unknown stage, the policy\'s listed first', `${HEAD}omitStages: [Done]\nrules: [{level: None, omitStages: [Panic, Later]}]\n`,
      '[omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic, '
      + 'rules[0].omitStages[1]: Invalid value: "Later": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic]'],
    ['an invalid policy before an empty one', `${HEAD}omitStages: [Done]\n`, 'omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic'],
  ];
  for (const [name, text, message] of cases) {
    it(name, () => assert.throws(() => parseAuditPolicy(text), { message }));
  }

  it('naming the source when given one', () => {
    assert.throws(() => parseAuditPolicy(HEAD, 'p.yaml'), { message: 'loaded illegal policy with 0 rules: from file p.yaml' });
  });
});

describe('loadAuditPolicy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-policy-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the file', () => {
    const path = join(dir, 'policy.json');
    writeFileSync(path, JSON.stringify({ apiVersion: 'audit.cluster.io/v1', kind: 'Policy', rules: [{ level: 'Metadata' }] }));
    assert.equal(loadAuditPolicy(path).rules[0]!.level, 'Metadata');
  });

  it('refuses as upstream, naming the file', () => {
    const empty = join(dir, 'empty.yaml');
    writeFileSync(empty, HEAD);
    assert.throws(() => loadAuditPolicy(empty), { message: `loaded illegal policy with 0 rules: from file ${empty}` });
    assert.throws(() => loadAuditPolicy(join(dir, 'absent.yaml')), { message: `failed to read file path "${dir}/absent.yaml": open ${dir}/absent.yaml: no such file or directory` });
    assert.throws(() => loadAuditPolicy(dir), { message: `failed to read file path "${dir}": read ${dir}: is a directory` });
    assert.throws(() => loadAuditPolicy(''), { message: 'file path not specified' });
  });
});

describe('evaluateAuditPolicy', () => {
  const levelFor = (rules: string, request: AuthorizationAttributes): AuditLevel => evaluateAuditPolicy(parseAuditPolicy(`${HEAD}rules:\n${rules}`), request).level;
  const log = attrs({ subresource: 'log' });
  const cases: readonly [string, string, AuthorizationAttributes, AuditLevel][] = [
    ['a rule without conditions matches resource requests', '- level: Request', attrs(), 'Request'],
    ['a rule without conditions matches other requests', '- level: Request', nonResource('/healthz'), 'Request'],
    ['the first matching rule decides', '- level: Request\n  verbs: [list]\n- level: Metadata\n- level: RequestResponse', attrs(), 'Metadata'],
    ['no matching rule: None', '- level: Request\n  users: [bob]', attrs(), 'None'],
    ['users: named', '- level: Metadata\n  users: [bob, alice]', attrs(), 'Metadata'],
    ['users: not named', '- level: Metadata\n  users: [bob]', attrs(), 'None'],
    ['userGroups: any of the user\'s', '- level: Metadata\n  userGroups: [ops, system:authenticated]', attrs(), 'Metadata'],
    ['userGroups: none of the user\'s', '- level: Metadata\n  userGroups: [ops]', attrs(), 'None'],
    ['verbs: named', '- level: Metadata\n  verbs: [list, get]', attrs(), 'Metadata'],
    ['verbs: not named', '- level: Metadata\n  verbs: [create]', attrs(), 'None'],
    ['verbs apply to other requests too', '- level: Metadata\n  verbs: [get]', nonResource('/version'), 'Metadata'],
    ['all conditions must hold', '- level: Metadata\n  users: [alice]\n  verbs: [create]', attrs(), 'None'],
    ['namespaces: named', '- level: Metadata\n  namespaces: [ns]', attrs(), 'Metadata'],
    ['namespaces: not named', '- level: Metadata\n  namespaces: [other]', attrs(), 'None'],
    ['namespaces: "" is cluster-scoped', '- level: Metadata\n  namespaces: [""]', attrs({ namespace: '', resource: 'nodes' }), 'Metadata'],
    ['namespaces: never other requests', '- level: Metadata\n  namespaces: [""]', nonResource('/healthz'), 'None'],
    ['resources: a group alone is all of it', '- level: Metadata\n  resources: [{group: ""}]', log, 'Metadata'],
    ['resources: another group', '- level: Metadata\n  resources: [{group: apps}]', attrs(), 'None'],
    ['resources: a later entry', '- level: Metadata\n  resources: [{group: apps}, {group: "", resources: [pods]}]', attrs(), 'Metadata'],
    ['resources: the group is exact', '- level: Metadata\n  resources: [{resources: [deployments]}]', attrs({ apiGroup: 'apps', resource: 'deployments' }), 'None'],
    ['resources: never other requests', '- level: Metadata\n  resources: [{group: ""}]', nonResource('/api'), 'None'],
    ['resources: named', '- level: Metadata\n  resources: [{resources: [secrets, pods]}]', attrs(), 'Metadata'],
    ['resources: * is every resource', '- level: Metadata\n  resources: [{resources: ["*"]}]', log, 'Metadata'],
    ['resources: pods is not pods/log', '- level: Metadata\n  resources: [{resources: [pods]}]', log, 'None'],
    ['resources: pods/log', '- level: Metadata\n  resources: [{resources: [pods/log]}]', log, 'Metadata'],
    ['resources: pods/log is not pods', '- level: Metadata\n  resources: [{resources: [pods/log]}]', attrs(), 'None'],
    ['resources: */log', '- level: Metadata\n  resources: [{resources: ["*/log"]}]', attrs({ resource: 'nodes', subresource: 'log' }), 'Metadata'],
    ['resources: */status is not log', '- level: Metadata\n  resources: [{resources: ["*/status"]}]', log, 'None'],
    ['resources: */log is not the resource itself', '- level: Metadata\n  resources: [{resources: ["*/log"]}]', attrs(), 'None'],
    ['resources: pods/* covers a subresource', '- level: Metadata\n  resources: [{resources: ["pods/*"]}]', log, 'Metadata'],
    ['resources: pods/* covers pods', '- level: Metadata\n  resources: [{resources: ["pods/*"]}]', attrs(), 'Metadata'],
    ['resources: pods/* is not nodes', '- level: Metadata\n  resources: [{resources: ["pods/*"]}]', attrs({ resource: 'nodes' }), 'None'],
    ['resourceNames: named', '- level: Metadata\n  resources: [{resources: [pods], resourceNames: [q, p]}]', attrs(), 'Metadata'],
    ['resourceNames: not named', '- level: Metadata\n  resources: [{resources: [pods], resourceNames: [q]}]', attrs(), 'None'],
    ['resourceNames: apply to subresources', '- level: Metadata\n  resources: [{resources: ["pods/*"], resourceNames: [q]}]', log, 'None'],
    ['namespaces and resources together', '- level: Metadata\n  namespaces: [other]\n  resources: [{group: ""}]', attrs(), 'None'],
    ['nonResourceURLs: exact', '- level: Metadata\n  nonResourceURLs: [/healthz]', nonResource('/healthz'), 'Metadata'],
    ['nonResourceURLs: exact is not a prefix', '- level: Metadata\n  nonResourceURLs: [/healthz]', nonResource('/healthz/ping'), 'None'],
    ['nonResourceURLs: a trailing *', '- level: Metadata\n  nonResourceURLs: ["/healthz*"]', nonResource('/healthzz'), 'Metadata'],
    ['nonResourceURLs: a trailing * covers the prefix itself', '- level: Metadata\n  nonResourceURLs: ["/healthz/*"]', nonResource('/healthz/'), 'Metadata'],
    ['nonResourceURLs: *', '- level: Metadata\n  nonResourceURLs: ["*"]', nonResource('/version'), 'Metadata'],
    ['nonResourceURLs: never resource requests', '- level: Metadata\n  nonResourceURLs: ["*"]', attrs(), 'None'],
  ];
  for (const [name, rules, request, level] of cases) {
    it(name, () => assert.equal(levelFor(rules, request), level));
  }

  it('joins the policy\'s omitted stages with the rule\'s; a rule\'s omitManagedFields overrides the policy\'s', () => {
    const policy = parseAuditPolicy(`${HEAD}omitStages: [RequestReceived]\nomitManagedFields: true\nrules:\n`
      + '- level: Request\n  verbs: [get]\n  omitStages: [ResponseStarted, RequestReceived]\n  omitManagedFields: false\n'
      + '- level: Metadata\n  verbs: [list]\n- level: RequestResponse\n  verbs: [create]\n  omitManagedFields: true\n');
    assert.deepEqual(evaluateAuditPolicy(policy, attrs()), { level: 'Request', omitStages: ['RequestReceived', 'ResponseStarted'], omitManagedFields: false });
    assert.deepEqual(evaluateAuditPolicy(policy, attrs({ verb: 'list' })), { level: 'Metadata', omitStages: ['RequestReceived'], omitManagedFields: true });
    assert.deepEqual(evaluateAuditPolicy(policy, attrs({ verb: 'delete' })), { level: 'None', omitStages: ['RequestReceived'], omitManagedFields: true });
    const lax = parseAuditPolicy(`${HEAD}rules:\n- level: Request\n  omitManagedFields: true\n  omitStages: [Panic]\n`);
    assert.deepEqual(evaluateAuditPolicy(lax, attrs()), { level: 'Request', omitStages: ['Panic'], omitManagedFields: true });
  });

  it('answers each request with the rule\'s one shared, frozen result', () => {
    const policy = parseAuditPolicy(`${HEAD}rules:\n- level: Metadata\n`);
    const evaluator = new AuditPolicyEvaluator(policy);
    const first = evaluator.evaluate(attrs());
    assert.equal(evaluator.evaluate(attrs({ verb: 'list' })), first);
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.omitStages));
  });

  it('orders levels by what they record', () => {
    const levels: AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
    for (const [i, level] of levels.entries()) {
      for (const [j, other] of levels.entries()) assert.equal(levelAtLeast(level, other), i >= j, `${level} >= ${other}`);
    }
  });
});
