/**
 * RBAC's escalation prevention, the part that needs no storage: whether the rules a user holds
 * cover the rules it is writing into a role (or granting by a binding), and, when not, upstream's
 * message listing what is missing. A user may only hand out what it holds itself, unless it is
 * allowed the `escalate` (roles) or `bind` (bindings) verb, which the caller checks first.
 */
import { goQuote } from '../../serialization/go-format.js';
import { goAggregate } from '../../util/go-aggregate.js';
import type { UserInfo } from '../user-info.js';
import { covers } from './covers.js';
import type { PolicyRule } from './rbac-types.js';

/** Everything: what setting a ClusterRole's aggregationRule requires, since it can gather any rule. */
export const FULL_AUTHORITY: readonly PolicyRule[] = Object.freeze([
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
]);

/** The rules a user holds, and the errors met finding them (bindings to missing roles). */
export interface HeldRules {
  readonly rules: readonly PolicyRule[];
  readonly errors: readonly string[];
}

/**
 * Undefined when `held` covers every rule of `wanted`; otherwise why not, in upstream's words:
 * `user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions
 * not currently held:` and one line per missing rule, compacted and sorted.
 */
export function escalationError(user: UserInfo, held: HeldRules, wanted: readonly PolicyRule[]): string | undefined {
  const { covered, uncovered } = covers(held.rules, wanted);
  if (covered) return undefined;
  const missing = [...new Set(compactRules(uncovered).map(compactString))].sort();
  let message = `user ${goQuote(user.name)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${missing.join('\n')}`;
  if (held.errors.length > 0) message += `; resolution errors: [${goAggregate(held.errors)[0]}]`;
  return message;
}

/**
 * Merges rules that name one group and one resource (and at most one name) and differ only in
 * verbs, as upstream compacts the broken-down rules Covers reports missing.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, { verbs: string[]; rule: PolicyRule }>();
  for (const rule of rules) {
    const key = simpleKey(rule);
    if (key === undefined) {
      compacted.push(rule);
      continue;
    }
    const merged = simple.get(key);
    if (merged) merged.verbs.push(...rule.verbs);
    else simple.set(key, { verbs: [...rule.verbs], rule });
  }
  for (const { verbs, rule } of simple.values()) compacted.push({ ...rule, verbs });
  return compacted;
}

/** `{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}`: a rule as upstream's messages print it. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  const add = (label: string, values: readonly string[] | undefined) => {
    if (values !== undefined && values.length > 0) parts.push(`${label}:${goQuoteList(values)}`);
  };
  add('APIGroups', rule.apiGroups);
  add('Resources', rule.resources);
  add('NonResourceURLs', rule.nonResourceURLs);
  add('ResourceNames', rule.resourceNames);
  add('Verbs', rule.verbs);
  return `{${parts.join(', ')}}`;
}

/** The key of a rule that only names verbs on one group's one resource (and at most one name); undefined for others. */
function simpleKey(rule: PolicyRule): string | undefined {
  const names = rule.resourceNames ?? [];
  if (names.length > 1 || (rule.nonResourceURLs ?? []).length > 0) return undefined;
  if (rule.apiGroups?.length !== 1 || rule.resources?.length !== 1) return undefined;
  // Upstream compares against a rule of only these fields: an empty-but-present list makes it not simple.
  if (rule.nonResourceURLs !== undefined || (rule.resourceNames !== undefined && names.length === 0)) return undefined;
  return JSON.stringify([rule.apiGroups[0], rule.resources[0], names.length === 1, names[0] ?? '']);
}

/** Go's %q of a []string: `["a" "b"]`. */
function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}
