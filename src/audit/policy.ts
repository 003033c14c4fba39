/**
 * The audit policy (--audit-policy-file): an audit.k8s.io/v1 Policy (audit.cluster.io/v1 in the
 * spec's spelling), YAML or JSON, read and checked as upstream's policy reader does, with its
 * words. Unknown fields are ignored, as upstream falls back to lenient decoding for them.
 */
import { readFileSync } from 'node:fs';
import { loadYamlLibrary } from '../serialization/yaml-library.js';
import type { FieldError } from '../api/errors.js';
import { goAggregate } from '../util/go-aggregate.js';
import { isDns1123Subdomain } from '../validation/dns-names.js';
import { fieldInvalid, fieldNotSupported, fieldRequired, goStringSlice } from '../validation/field-errors.js';

export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

/** In the order of how much they record; sorted as Go's sets list them where messages name them. */
export const AUDIT_LEVELS: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
const AUDIT_STAGES: readonly AuditStage[] = ['Panic', 'RequestReceived', 'ResponseComplete', 'ResponseStarted'];

export interface GroupResources {
  /** "" is the core group. */
  readonly group: string;
  /** Empty: every resource of the group. `pods/log`, `*`, `*\/status`, `pods/*` as upstream. */
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

export interface PolicyRule {
  readonly level: AuditLevel;
  readonly users: readonly string[];
  readonly userGroups: readonly string[];
  readonly verbs: readonly string[];
  readonly resources: readonly GroupResources[];
  readonly namespaces: readonly string[];
  readonly nonResourceURLs: readonly string[];
  readonly omitStages: readonly AuditStage[];
  /** Unset: the policy's. */
  readonly omitManagedFields?: boolean;
}

export interface AuditPolicy {
  readonly rules: readonly PolicyRule[];
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

const POLICY_VERSIONS: readonly string[] = ['audit.k8s.io/v1', 'audit.cluster.io/v1'];

/** Reads and checks the policy file; throws with upstream's words. */
export function loadAuditPolicy(path: string): AuditPolicy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`failed to read file path "${path}": ${(err as Error).message}`);
  }
  try {
    return parseAuditPolicy(text);
  } catch (err) {
    throw new Error(`${(err as Error).message}: from file ${path}`);
  }
}

export function parseAuditPolicy(text: string): AuditPolicy {
  let doc: unknown;
  try {
    doc = loadYamlLibrary().parse(text);
  } catch (err) {
    throw new Error(`failed decoding: ${(err as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error('failed decoding: the policy is not an object');
  const raw = doc as Record<string, unknown>;
  const apiVersion = typeof raw['apiVersion'] === 'string' ? raw['apiVersion'] : '';
  const kind = typeof raw['kind'] === 'string' ? raw['kind'] : '';
  if (kind === '') throw new Error(`failed decoding: Object 'Kind' is missing in '${oneLine(text)}'`);
  if (!POLICY_VERSIONS.includes(apiVersion) || kind !== 'Policy') {
    throw new Error(`failed decoding: no kind "${kind}" is registered for version "${apiVersion}"`);
  }
  const errors: FieldError[] = [];
  const policy: AuditPolicy = {
    rules: listOf(raw['rules'], 'rules').map((rule, i) => ruleOf(rule, `rules[${i}]`, errors)),
    omitStages: stagesOf(raw['omitStages'], 'omitStages', errors),
    omitManagedFields: raw['omitManagedFields'] === true,
  };
  if (errors.length > 0) throw new Error(goAggregate(errors.map((e) => `${e.field}: ${e.message}`))[0]);
  if (policy.rules.length === 0) throw new Error('loaded illegal policy with 0 rules');
  return policy;
}

function ruleOf(value: unknown, path: string, errors: FieldError[]): PolicyRule {
  const raw = objectOf(value, path);
  const level = typeof raw['level'] === 'string' ? raw['level'] : '';
  if (level === '') errors.push(fieldRequired(`${path}.level`));
  else if (!(AUDIT_LEVELS as readonly string[]).includes(level)) errors.push(fieldNotSupported(`${path}.level`, level, ['Metadata', 'None', 'Request', 'RequestResponse']));
  const nonResourceURLs = stringsOf(raw['nonResourceURLs'], `${path}.nonResourceURLs`);
  nonResourceURLs.forEach((url, i) => {
    if (url === '*') return;
    if (!url.startsWith('/')) errors.push(fieldInvalid(`${path}.nonResourceURLs[${i}]`, url, "non-resource URL rules must begin with a '/' character"));
    if (url !== '' && url.slice(0, -1).includes('*')) errors.push(fieldInvalid(`${path}.nonResourceURLs[${i}]`, url, "non-resource URL wildcards '*' must be the final character of the rule"));
  });
  const resources = listOf(raw['resources'], `${path}.resources`).map((entry, i) => groupResourcesOf(entry, `${path}.resources[${i}]`));
  for (const gr of resources) {
    // Upstream names these fields without the entry's index.
    if (gr.group !== '') {
      const problems = isDns1123Subdomain(gr.group);
      if (problems.length > 0) errors.push(fieldInvalid(`${path}.resources.group`, gr.group, problems.join(',')));
    }
    if (gr.resourceNames.length > 0 && gr.resources.length === 0) {
      errors.push(fieldInvalid(`${path}.resources.resourceNames`, goStringSlice(gr.resourceNames), 'using resourceNames requires at least one resource'));
    }
  }
  const omitStages = stagesOf(raw['omitStages'], `${path}.omitStages`, errors);
  const namespaces = stringsOf(raw['namespaces'], `${path}.namespaces`);
  if (nonResourceURLs.length > 0 && (resources.length > 0 || namespaces.length > 0)) {
    errors.push(fieldInvalid(`${path}.nonResourceURLs`, goStringSlice(nonResourceURLs), 'rules cannot apply to both regular resources and non-resource URLs'));
  }
  const omitManagedFields = raw['omitManagedFields'];
  return {
    level: level as AuditLevel,
    users: stringsOf(raw['users'], `${path}.users`),
    userGroups: stringsOf(raw['userGroups'], `${path}.userGroups`),
    verbs: stringsOf(raw['verbs'], `${path}.verbs`),
    resources,
    namespaces,
    nonResourceURLs,
    omitStages,
    ...(typeof omitManagedFields === 'boolean' ? { omitManagedFields } : {}),
  };
}

function groupResourcesOf(value: unknown, path: string): GroupResources {
  const raw = objectOf(value, path);
  return {
    group: typeof raw['group'] === 'string' ? raw['group'] : '',
    resources: stringsOf(raw['resources'], `${path}.resources`),
    resourceNames: stringsOf(raw['resourceNames'], `${path}.resourceNames`),
  };
}

function stagesOf(value: unknown, path: string, errors: FieldError[]): AuditStage[] {
  const stages = stringsOf(value, path);
  stages.forEach((stage, i) => {
    if (!(AUDIT_STAGES as readonly string[]).includes(stage)) errors.push(fieldInvalid(`${path}[${i}]`, stage, `allowed stages are ${AUDIT_STAGES.join(',')}`));
  });
  return stages as AuditStage[];
}

/** A list field; absent or null is empty; anything else fails decoding as Go's JSON would. */
function listOf(value: unknown, path: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Error(`failed decoding: ${path}: expected a list, got ${describe(value)}`);
  return value;
}

function stringsOf(value: unknown, path: string): string[] {
  return listOf(value, path).map((item, i) => {
    if (typeof item !== 'string') throw new Error(`failed decoding: ${path}[${i}]: expected a string, got ${describe(item)}`);
    return item;
  });
}

function objectOf(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`failed decoding: ${path}: expected an object, got ${describe(value)}`);
  return value as Record<string, unknown>;
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}
