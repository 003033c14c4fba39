/**
 * What an aggregated ClusterRole's rules should be. A ClusterRole with an `aggregationRule` owns no
 * rules of its own: it gathers those of the ClusterRoles its selectors pick, which is how the
 * default admin, edit and view roles grow when an add-on labels a role of its own
 * `rbac.authorization.k8s.io/aggregate-to-edit: "true"`.
 *
 * Worked example: `admin` selects `aggregate-to-admin=true`; `edit` (rules E1, E2) and `extra`
 * (rules E2, X1) carry that label. The roles are visited by name, so admin's rules become
 * [E1, E2, X1]: E2 is kept once, where it was first seen.
 */
import { jsonEqual, type KubeObject } from '../registry/object.js';
import { isRecord, recordsAt, type JsonRecord } from '../registry/strategies/json-access.js';
import { selectorMatches, validateLabelSelector } from '../registry/strategies/label-selector.js';

/** One entry of a role's `rules` as stored (JSON, unlike the typed PolicyRule of src/auth/rbac). */
export type StoredRule = JsonRecord;

/** A selector of an aggregationRule that could not be read; the role is left as it is. */
export class InvalidAggregationRuleError extends Error {
  override readonly name = 'InvalidAggregationRuleError';
}

/** Whether the role gathers its rules from others (it has an `aggregationRule`, even an empty one). */
export function isAggregated(role: KubeObject): boolean {
  return isRecord(role['aggregationRule']);
}

/** The role's rules as stored; empty when it has none. */
export function rulesOf(role: KubeObject): StoredRule[] {
  return recordsAt(role, 'rules');
}

/**
 * The rules `role` aggregates from `allClusterRoles`: for each of its clusterRoleSelectors in turn,
 * the rules of every other ClusterRole that selector picks, roles visited by name, each rule kept
 * only where it first appears. A role without an aggregationRule gets its own rules back. The
 * result shares rule objects with the inputs, which are not mutated.
 *
 * Throws InvalidAggregationRuleError when a selector is malformed (an unknown operator, values
 * where none belong), as upstream gives up on such a role rather than guess.
 */
export function aggregatedRules(role: KubeObject, allClusterRoles: Iterable<KubeObject>): StoredRule[] {
  if (!isAggregated(role)) return rulesOf(role);
  const self = nameOf(role);
  const others = [...allClusterRoles].filter((other) => nameOf(other) !== self).sort(byName);
  const rules: StoredRule[] = [];
  for (const selector of selectorsOf(role)) {
    for (const other of others) {
      if (!selectorMatches(selector, other.metadata?.labels ?? {})) continue;
      for (const rule of rulesOf(other)) if (!rules.some((kept) => sameRule(kept, rule))) rules.push(rule);
    }
  }
  return rules;
}

/**
 * Whether two rule lists are the same, in order. A field that is absent, null or an empty list
 * counts as the same, as upstream's comparison treats a nil and an empty list alike: otherwise a
 * role stored with `resourceNames: []` would be rewritten forever.
 */
export function sameRules(a: readonly StoredRule[], b: readonly StoredRule[]): boolean {
  return a.length === b.length && a.every((rule, i) => sameRule(rule, b[i]!));
}

function sameRule(a: StoredRule, b: StoredRule): boolean {
  return jsonEqual(withoutEmptyFields(a), withoutEmptyFields(b));
}

function withoutEmptyFields(rule: StoredRule): StoredRule {
  const isEmpty = (value: unknown): boolean => value === null || (Array.isArray(value) && value.length === 0);
  return Object.fromEntries(Object.entries(rule).filter(([, value]) => !isEmpty(value)));
}

/** The role's clusterRoleSelectors, each checked as the API would check it. */
function selectorsOf(role: KubeObject): JsonRecord[] {
  const selectors = recordsAt(role['aggregationRule'], 'clusterRoleSelectors');
  selectors.forEach((selector, i) => {
    const errors = validateLabelSelector(selector, `aggregationRule.clusterRoleSelectors[${i}]`);
    if (errors.length > 0) throw new InvalidAggregationRuleError(errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  });
  return selectors;
}

/** The name, read without metaOf, which would add metadata to a shared object that lacks it. */
function nameOf(role: KubeObject): string {
  return role.metadata?.name ?? '';
}

/** By name, as Go compares strings (code units here, bytes there: the same for ASCII names). */
function byName(a: KubeObject, b: KubeObject): number {
  const [x, y] = [nameOf(a), nameOf(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}
