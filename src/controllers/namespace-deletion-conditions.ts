/**
 * The five conditions upstream's namespace controller keeps on a Terminating namespace, written
 * after every cleaning pass (`kubectl describe namespace` shows why a namespace is stuck). A
 * condition that is not failing is written False with its "ok" reason and message; a condition's
 * lastTransitionTime moves only when its status changes.
 */
import { timestamp } from '../registry/object.js';

export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** What one cleaning pass left behind. */
export interface CleaningOutcome {
  /** `<resource>.<group>` (the core group empty: "configmaps.") → objects left. */
  readonly remaining: ReadonlyMap<string, number>;
  /** Finalizer → objects it still holds. */
  readonly finalizers: ReadonlyMap<string, number>;
  /** One message per type that could not be cleaned. */
  readonly errors: readonly string[];
}

/** Each condition type with its ok reason and message, in upstream's order. */
const OK: ReadonlyArray<readonly [type: string, reason: string, message: string]> = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  ['NamespaceDeletionGroupVersionParsingFailure', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  ['NamespaceDeletionContentFailure', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  ['NamespaceFinalizersRemaining', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
];

/** The failing conditions of `outcome` by type, worded as upstream's condition updater. */
function failing(outcome: CleaningOutcome): Map<string, { reason: string; message: string }> {
  const out = new Map<string, { reason: string; message: string }>();
  if (outcome.errors.length > 0) {
    const messages = [...outcome.errors].sort().join(', ');
    out.set('NamespaceDeletionContentFailure', {
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${outcome.errors.length} remaining: ${messages}`,
    });
  }
  const resources = [...outcome.remaining].filter(([, n]) => n > 0).map(([r, n]) => `${r} has ${n} resource instances`);
  if (resources.length > 0) {
    out.set('NamespaceContentRemaining', { reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${resources.sort().join(', ')}` });
  }
  const held = [...outcome.finalizers].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`);
  if (held.length > 0) {
    out.set('NamespaceFinalizersRemaining', {
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${held.sort().join(', ')}`,
    });
  }
  return out;
}

/**
 * `conditions` (a namespace's status.conditions) with the five deletion conditions set from
 * `outcome` at `now`; other conditions are kept as they are.
 */
export function withDeletionConditions(conditions: readonly NamespaceCondition[], outcome: CleaningOutcome, now: number): NamespaceCondition[] {
  const failures = failing(outcome);
  const out = conditions.map((c) => ({ ...c }));
  for (const [type, okReason, okMessage] of OK) {
    const failure = failures.get(type);
    const status = failure ? 'True' : 'False';
    const reason = failure?.reason ?? okReason;
    const message = failure?.message ?? okMessage;
    const existing = out.find((c) => c.type === type);
    if (!existing) {
      out.push({ type, status, lastTransitionTime: timestamp(now), reason, message });
      continue;
    }
    if (existing.status !== status) existing.lastTransitionTime = timestamp(now);
    Object.assign(existing, { status, reason, message });
  }
  return out;
}
