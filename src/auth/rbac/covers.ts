/**
 * Whether one set of RBAC rules grants everything another does, as upstream's policy comparator
 * decides it (k8s.io/component-helpers/auth/rbac/validation). The wanted rules are first split into
 * atoms of one verb on one group's one resource (and one name, when the rule names objects), or one
 * verb on one URL. An atom is then always granted by a single held rule or by none, so "covered"
 * is "every atom is granted by some held rule", and the atoms left over say exactly what is missing.
 *
 * Worked example: held `{apiGroups: [""], resources: ["pods"], verbs: ["get", "list"]}`, wanted
 * `{apiGroups: [""], resources: ["pods", "pods/log"], verbs: ["get"]}`. The atoms are get pods and
 * get pods/log; the first is held, the second is not, so the answer is not covered, with
 * `[{apiGroups: [""], resources: ["pods/log"], verbs: ["get"]}]` uncovered.
 *
 * Used by escalation checks (a user may only grant what it holds) and by the bootstrap policy's
 * reconciliation (which rules of a default role are missing).
 */
import type { PolicyRule } from './rbac-types.js';

export type { PolicyRule } from './rbac-types.js';

/** The outcome of {@link covers}: `uncovered` lists the atoms (see the module comment) no held rule grants. */
export interface CoverResult {
  readonly covered: boolean;
  readonly uncovered: PolicyRule[];
}

/**
 * Whether `ownerRules` grant every permission of `servantRules`. Pure; the arguments are not
 * changed. A servant rule naming resources but no groups (or no verbs) grants nothing, so it has no
 * atoms and is always covered, as upstream.
 */
export function covers(ownerRules: readonly PolicyRule[], servantRules: readonly PolicyRule[]): CoverResult {
  const uncovered: PolicyRule[] = [];
  for (const servant of servantRules) {
    for (const atom of breakdownRule(servant)) {
      if (!ownerRules.some((owner) => ruleCoversAtom(owner, atom))) uncovered.push(atom);
    }
  }
  return { covered: uncovered.length === 0, uncovered };
}

/**
 * The atoms of a rule: one rule per group × resource × verb (× name when the rule names objects),
 * then one per URL × verb. Only the fields an atom uses are set, which is what upstream's messages
 * and rule compaction expect of them.
 */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const atoms: PolicyRule[] = [];
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (names.length === 0) atoms.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        for (const name of names) atoms.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) atoms.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return atoms;
}

/**
 * Whether `owner` grants `atom`. The four dimensions are checked independently, so an atom of the
 * other kind (URL vs resource) is never granted: its empty lists match, but the owner's lists of
 * its own kind cannot match the atom's one entry.
 */
function ruleCoversAtom(owner: PolicyRule, atom: PolicyRule): boolean {
  return (
    listCovers(owner.verbs, atom.verbs) &&
    listCovers(owner.apiGroups, atom.apiGroups) &&
    resourcesCover(owner.resources ?? [], atom.resources ?? []) &&
    urlsCover(owner.nonResourceURLs ?? [], atom.nonResourceURLs ?? []) &&
    namesCover(owner.resourceNames ?? [], atom.resourceNames ?? [])
  );
}

/** Verbs and groups: `*` held grants any value; otherwise every wanted value must be held as such. */
function listCovers(held: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  const owned = held ?? [];
  return owned.includes('*') || includesAll(owned, wanted ?? []);
}

/** `*` grants every resource, `*\/status` the status subresource of every resource. */
function resourcesCover(held: readonly string[], wanted: readonly string[]): boolean {
  if (held.includes('*') || includesAll(held, wanted)) return true;
  return wanted.every((resource) => {
    if (held.includes(resource)) return true;
    const slash = resource.indexOf('/');
    return slash >= 0 && held.includes(`*${resource.slice(slash)}`);
  });
}

function urlsCover(held: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((path) => held.some((owner) => urlCovers(owner, path)));
}

/** A held URL ending in `*` grants every path under its prefix (all trailing stars dropped, as Go's TrimRight). */
function urlCovers(owner: string, path: string): boolean {
  return owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')));
}

/** A rule without names grants every object; one with names grants only those, and never "any object". */
function namesCover(held: readonly string[], wanted: readonly string[]): boolean {
  if (wanted.length === 0) return held.length === 0;
  return held.length === 0 || includesAll(held, wanted);
}

function includesAll(held: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((value) => held.includes(value));
}
