/**
 * The audit policy (--audit-policy-file): an audit.k8s.io/v1 Policy (audit.cluster.io/v1 in the
 * spec's spelling), YAML or JSON, read and checked as kube-apiserver 1.35 reads it, with its words.
 *
 * Upstream decodes in three steps, and each fails in its own words, so this file keeps them apart:
 * the apiVersion and kind are read first (a document that is not an object fails there); then the
 * body is decoded into the Go types, where a value of the wrong JSON type fails with
 * encoding/json's message; then the decoded policy is validated, every field error aggregated.
 * Unknown and repeated fields are accepted: upstream retries such a policy leniently, with a warning.
 * Only v1 is read: upstream dropped v1alpha1 and v1beta1 policies in 1.24.
 */
import { readFileSync } from 'node:fs';
import type { FieldError } from '../api/errors.js';
import { goQuote } from '../serialization/go-format.js';
import { decodeYaml } from '../serialization/yaml-decode.js';
import { goJsonType } from '../serialization/go-json-errors.js';
import { readTypeMeta } from '../serialization/type-meta.js';
import { goAggregate } from '../util/go-aggregate.js';
import { goPathError } from '../util/go-path-error.js';
import { isDns1123Subdomain } from '../validation/dns-names.js';
import { fieldInvalid, fieldNotSupported, fieldRequired } from '../validation/field-errors.js';

export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

export interface GroupResources {
  /** "" is the core group. */
  readonly group: string;
  /** Empty: every resource of the group. Also `*`, `pods/log`, `pods/*` and `*\/status`. */
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

/** A request matches when each non-empty list holds its value; the first matching rule decides. */
export interface PolicyRule {
  readonly level: AuditLevel;
  readonly users: readonly string[];
  readonly userGroups: readonly string[];
  readonly verbs: readonly string[];
  readonly resources: readonly GroupResources[];
  /** "" stands for cluster-scoped resources. */
  readonly namespaces: readonly string[];
  /** Exact paths, prefixes ending in `*`, or `*`. */
  readonly nonResourceURLs: readonly string[];
  /** Omitted as well as the policy's. */
  readonly omitStages: readonly AuditStage[];
  /** Absent: the policy's. */
  readonly omitManagedFields?: boolean;
}

export interface AuditPolicy {
  readonly rules: readonly PolicyRule[];
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

/** In the order upstream's messages list them. */
const LEVELS: readonly string[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
const STAGES: readonly string[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

/**
 * Reads and checks the policy file. Throws an Error in upstream's words: `file path not specified`,
 * `failed to read file path "<path>": open <path>: no such file or directory`, or what
 * {@link parseAuditPolicy} throws, followed by `: from file <path>`.
 */
export function loadAuditPolicy(path: string): AuditPolicy {
  if (path === '') throw new Error('file path not specified');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`failed to read file path ${goQuote(path)}: ${goPathError(err as NodeJS.ErrnoException, path)}`);
  }
  return parseAuditPolicy(text, path);
}

/**
 * Decodes and checks a policy document. Throws an Error with upstream's message: `failed decoding:
 * ...`, `unknown group version field ... in policy`, the validation errors (`rules[0].level:
 * Required value`, several as `[a, b]`), or `loaded illegal policy with 0 rules`. With `source`,
 * the message ends in `: from file <source>`, as upstream names the file it read.
 */
export function parseAuditPolicy(text: string, source?: string): AuditPolicy {
  try {
    return readPolicy(text);
  } catch (err) {
    if (source === undefined || !(err instanceof Error)) throw err;
    throw new Error(`${err.message}: from file ${source}`);
  }
}

function readPolicy(text: string): AuditPolicy {
  let doc: unknown;
  try {
    doc = decodeYaml(Buffer.from(text, 'utf8')).value ?? {};
  } catch (err) {
    throw new Error(`failed decoding: ${(err as Error).message}`);
  }
  checkPolicyKind(doc, text);
  let policy: DecodedPolicy;
  try {
    policy = decode(doc, POLICY, { struct: '', fields: [] }) as DecodedPolicy;
  } catch (err) {
    throw new Error(`failed decoding: ${(err as Error).message}`);
  }
  const errors = validatePolicy(policy);
  if (errors.length > 0) throw new Error(goAggregate(errors.map((e) => `${e.field}: ${e.message}`))[0]);
  if (policy.rules.length === 0) throw new Error('loaded illegal policy with 0 rules');
  return { rules: policy.rules as PolicyRule[], omitStages: policy.omitStages as AuditStage[], omitManagedFields: policy.omitManagedFields === true };
}

// --- The apiVersion and kind, as upstream's scheme resolves them -------------------------------

const AUDIT_GROUP = 'audit.k8s.io';
const INTERNAL = '__internal';
const POLICY_VERSIONS: ReadonlySet<string> = new Set(['audit.k8s.io/v1', 'audit.cluster.io/v1']);
/** Where upstream's audit scheme is created; its "not registered" messages name it. */
const SCHEME = 'k8s.io/apiserver/pkg/audit/scheme.go:30';
/** Kinds the scheme also knows in audit.k8s.io/v1 (META_KINDS in the core v1 too), which then fail to convert to a Policy. */
const META_KINDS: ReadonlySet<string> = new Set(['WatchEvent', 'ListOptions', 'GetOptions', 'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions']);
const AUDIT_KINDS: ReadonlySet<string> = new Set(['Event', 'EventList', 'PolicyList', ...META_KINDS]);
const UNVERSIONED_KINDS: ReadonlySet<string> = new Set(['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']);

/**
 * Throws unless the document is a Policy of a version read here. As upstream, a missing kind is
 * taken to be Policy, and a missing apiVersion selects the internal version, which is refused.
 */
function checkPolicyKind(doc: unknown, text: string): void {
  const fail = (message: string): never => {
    throw new Error(`failed decoding: ${message}`);
  };
  let typeMeta: { apiVersion: string; kind: string };
  try {
    typeMeta = readTypeMeta(doc);
  } catch (err) {
    return fail((err as Error).message);
  }
  const { apiVersion, kind: givenKind } = typeMeta;
  const kind = givenKind === '' ? 'Policy' : givenKind;
  const parts = apiVersion === '/' ? ['', ''] : apiVersion.split('/');
  if (parts.length > 2) fail(`unexpected GroupVersion string: ${apiVersion}`);
  let [group, version] = parts.length === 1 ? ['', parts[0]!] : (parts as [string, string]);
  if (version === '' && (group === '' || group === AUDIT_GROUP)) [group, version] = [AUDIT_GROUP, INTERNAL];
  if (version === '') fail(`Object 'apiVersion' is missing in '${text}'`);
  const groupVersion = group === '' ? version : `${group}/${version}`;
  const internal = version === INTERNAL && group === AUDIT_GROUP;
  if (kind === 'Policy' && POLICY_VERSIONS.has(groupVersion)) return;
  if (kind === 'Policy' && internal) throw new Error(`unknown group version field ${groupVersion}, Kind=Policy in policy`);
  const converting = (type: string): never => fail(`converting (${type}) to (audit.Policy): unknown conversion`);
  if (UNVERSIONED_KINDS.has(kind)) converting(`v1.${kind}`);
  if (POLICY_VERSIONS.has(groupVersion) && AUDIT_KINDS.has(kind)) converting(`v1.${kind}`);
  if (groupVersion === 'v1' && META_KINDS.has(kind)) converting(`v1.${kind}`);
  if (internal && kind === 'WatchEvent') converting('v1.InternalEvent');
  if (internal && (kind === 'Event' || kind === 'EventList' || kind === 'PolicyList')) converting(`audit.${kind}`);
  if (version === INTERNAL) fail(`no kind ${goQuote(kind)} is registered for the internal version of group ${goQuote(group)} in scheme "${SCHEME}"`);
  fail(`no kind ${goQuote(kind)} is registered for version ${goQuote(groupVersion)} in scheme "${SCHEME}"`);
}

// --- The body, decoded as encoding/json decodes it into the v1 types ----------------------------

/** A Go type: its name as Go prints it, and how a JSON value fills it. */
type Shape =
  | { readonly go: string; readonly is: 'string' | 'bool' | 'object' }
  | { readonly go: string; readonly is: 'list'; readonly of: Shape }
  | { readonly go: string; readonly is: 'struct'; readonly name: string; readonly fields: Readonly<Record<string, Shape>> };

const STRING: Shape = { go: 'string', is: 'string' };
const STRINGS: Shape = { go: '[]string', is: 'list', of: STRING };
const STAGE_LIST: Shape = { go: '[]v1.Stage', is: 'list', of: { go: 'v1.Stage', is: 'string' } };
const BOOL: Shape = { go: 'bool', is: 'bool' };
const GROUP_RESOURCES: Shape = { go: 'v1.GroupResources', is: 'struct', name: 'GroupResources', fields: { group: STRING, resources: STRINGS, resourceNames: STRINGS } };
const RULE: Shape = {
  go: 'v1.PolicyRule',
  is: 'struct',
  name: 'PolicyRule',
  fields: {
    level: { go: 'v1.Level', is: 'string' },
    users: STRINGS,
    userGroups: STRINGS,
    verbs: STRINGS,
    resources: { go: '[]v1.GroupResources', is: 'list', of: GROUP_RESOURCES },
    namespaces: STRINGS,
    nonResourceURLs: STRINGS,
    omitStages: STAGE_LIST,
    omitManagedFields: BOOL,
  },
};
const POLICY: Shape = {
  go: 'v1.Policy',
  is: 'struct',
  name: 'Policy',
  fields: { metadata: { go: 'v1.ObjectMeta', is: 'object' }, rules: { go: '[]v1.PolicyRule', is: 'list', of: RULE }, omitStages: STAGE_LIST, omitManagedFields: BOOL },
};

interface DecodedRule extends Omit<PolicyRule, 'level' | 'omitStages'> {
  readonly level: string;
  readonly omitStages: readonly string[];
}
interface DecodedPolicy {
  readonly rules: readonly DecodedRule[];
  readonly omitStages: readonly string[];
  readonly omitManagedFields?: boolean;
}

/** Where a value is being decoded, for the error: the innermost struct and the JSON field path. */
interface Where {
  readonly struct: string;
  readonly fields: readonly string[];
}

/**
 * `value` as Go's decoder fills `shape`: null leaves the zero value (a bool stays unset), unknown
 * fields are skipped, and the first mistyped value in document order is thrown in Go's words.
 */
function decode(value: unknown, shape: Shape, where: Where): unknown {
  if (value === null || value === undefined) return shape.is === 'struct' ? decode({}, shape, where) : ZERO[shape.is];
  const kind = goJsonType(value);
  if (shape.is === 'list' && kind === 'array') return (value as unknown[]).map((item) => decode(item, shape.of, where));
  if (shape.is === 'struct' && kind === 'object') {
    const decoded: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value as object)) {
      const field = Object.hasOwn(shape.fields, name) ? shape.fields[name] : undefined;
      if (field !== undefined) decoded[name] = decode(item, field, { struct: shape.name, fields: [...where.fields, name] });
    }
    for (const [name, field] of Object.entries(shape.fields)) decoded[name] ??= decode(null, field, where);
    for (const name of Object.keys(decoded)) if (decoded[name] === undefined) delete decoded[name];
    return decoded;
  }
  if ((shape.is === 'string' || shape.is === 'bool' || shape.is === 'object') && kind === shape.is) return value;
  throw new Error(`json: cannot unmarshal ${kind} into Go struct field ${where.struct}.${where.fields.join('.')} of type ${shape.go}`);
}

const ZERO = { string: '', bool: undefined, object: {}, list: [] } as const;

// --- Validation, as upstream's ValidatePolicy ---------------------------------------------------

function validatePolicy(policy: DecodedPolicy): FieldError[] {
  const errors = stageErrors(policy.omitStages, 'omitStages');
  policy.rules.forEach((rule, i) => errors.push(...ruleErrors(rule, `rules[${i}]`)));
  return errors;
}

function ruleErrors(rule: DecodedRule, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (rule.level === '') errors.push(fieldRequired(`${path}.level`));
  else if (!LEVELS.includes(rule.level)) errors.push(fieldNotSupported(`${path}.level`, rule.level, LEVELS));
  rule.nonResourceURLs.forEach((url, i) => {
    if (url === '*') return;
    if (!url.startsWith('/')) errors.push(fieldInvalid(`${path}.nonResourceURLs[${i}]`, url, "non-resource URL rules must begin with a '/' character"));
    if (url.slice(0, -1).includes('*')) errors.push(fieldInvalid(`${path}.nonResourceURLs[${i}]`, url, "non-resource URL wildcards '*' must be the final character of the rule"));
  });
  for (const { group, resources, resourceNames } of rule.resources) {
    // Upstream names these two without the entry's index.
    const groupProblems = group === '' ? [] : isDns1123Subdomain(group);
    if (groupProblems.length > 0) errors.push(fieldInvalid(`${path}.resources.group`, group, groupProblems.join(',')));
    if (resourceNames.length > 0 && resources.length === 0) {
      errors.push(fieldInvalid(`${path}.resources.resourceNames`, resourceNames, 'using resourceNames requires at least one resource'));
    }
  }
  errors.push(...stageErrors(rule.omitStages, `${path}.omitStages`));
  if (rule.nonResourceURLs.length > 0 && (rule.resources.length > 0 || rule.namespaces.length > 0)) {
    errors.push(fieldInvalid(`${path}.nonResourceURLs`, rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
  }
  return errors;
}

function stageErrors(stages: readonly string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  stages.forEach((stage, i) => {
    if (!STAGES.includes(stage)) errors.push(fieldInvalid(`${path}[${i}]`, stage, `allowed stages are ${STAGES.join(',')}`));
  });
  return errors;
}
