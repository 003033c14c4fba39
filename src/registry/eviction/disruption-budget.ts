/**
 * The PodDisruptionBudget rules an eviction applies (upstream's eviction REST and its PDB helper):
 * which budgets cover a pod, whether the pod counts as healthy, and the check-and-decrement of
 * status.disruptionsAllowed that lets one more pod go. Pure functions over objects; the caller
 * reads and writes the stores.
 */
import { ApiError, forbidden } from '../../api/errors.js';
import { metaOf, timestamp, type KubeObject } from '../object.js';
import { isRecord, recordAt, recordsAt, stringAt, type JsonRecord } from '../strategies/json-access.js';
import { selectorMatches, validateLabelSelector } from '../strategies/label-selector.js';

/**
 * Upstream's limit on status.disruptedPods: more entries mean the disruption controller has not
 * caught up with the evictions it was told about, and further evictions are refused.
 */
const MAX_DISRUPTED_PODS = 2000;

/** The StatusCause type a budget's refusal carries (policy/v1 DisruptionBudgetCause). */
const DISRUPTION_BUDGET_CAUSE = 'DisruptionBudget';

/**
 * The budgets in the pod's namespace whose selector selects it. A budget without a selector
 * selects nothing; an empty one selects every pod (policy/v1); an invalid one selects nothing.
 */
export function budgetsCovering(budgets: readonly KubeObject[], pod: KubeObject): KubeObject[] {
  const labels = (metaOf(pod).labels ?? {}) as Record<string, string>;
  return budgets.filter((budget) => {
    const selector = recordAt(budget['spec'], 'selector');
    if (selector === undefined || validateLabelSelector(selector, 'selector').length > 0) return false;
    return selectorMatches(selector, labels);
  });
}

/** Whether the pod has condition Ready=True: upstream's measure of a healthy pod. */
export function isPodReady(pod: KubeObject): boolean {
  return recordsAt(pod['status'], 'conditions').some((c) => c['type'] === 'Ready' && c['status'] === 'True');
}

/** A pod that is done, not yet running, or already going needs no budget's permission to go. */
export function canIgnoreBudgets(pod: KubeObject): boolean {
  const phase = stringAt(pod['status'], 'phase');
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || metaOf(pod).deletionTimestamp !== undefined;
}

/**
 * Whether the delete must name the pod's resourceVersion, so that a pod turning ready meanwhile
 * is not deleted on a decision made while it was not: every pod but a finished or going one.
 */
export function mustPinResourceVersion(pod: KubeObject): boolean {
  const phase = stringAt(pod['status'], 'phase');
  return !(phase === 'Succeeded' || phase === 'Failed' || metaOf(pod).deletionTimestamp !== undefined);
}

/**
 * An unready pod whose budget is satisfied without it may go without using up a disruption:
 * always under the AlwaysAllow policy, and under the default IfHealthyBudget when the budget has
 * all the healthy pods it wants.
 */
export function unhealthyPodMayGo(budget: KubeObject): boolean {
  if (stringAt(budget['spec'], 'unhealthyPodEvictionPolicy') === 'AlwaysAllow') return true;
  const status = budget['status'];
  const desired = numberAt(status, 'desiredHealthy');
  return numberAt(status, 'currentHealthy') >= desired && desired > 0;
}

/** 429 for a budget whose status the disruption controller has not yet brought up to date. */
export function budgetStillProcessing(budgetName: string): ApiError {
  return tooManyRequests(10, `The disruption budget ${budgetName} is still being processed by the server.`);
}

/**
 * Spends one of the budget's allowed disruptions on `podName`: mutates and returns `budget` (a
 * private copy) with status.disruptionsAllowed one lower, the DisruptionAllowed condition updated
 * when it reaches 0, and (unless a dry run) the pod recorded in status.disruptedPods so the
 * disruption controller does not count it as available. Throws 429 or 403 when the budget allows
 * no disruption.
 */
export function spendDisruption(budget: KubeObject, podName: string, now: number, dryRun: boolean): KubeObject {
  const meta = metaOf(budget);
  const name = meta.name ?? '';
  const status = (isRecord(budget['status']) ? budget['status'] : (budget['status'] = {})) as JsonRecord;
  const allowed = numberAt(status, 'disruptionsAllowed');
  if (numberAt(status, 'observedGeneration') < (meta.generation ?? 0)) throw budgetStillProcessing(name);
  if (allowed < 0) throw budgetForbids(name, 'pdb disruptions allowed is negative');
  const disrupted = isRecord(status['disruptedPods']) ? status['disruptedPods'] : {};
  if (Object.keys(disrupted).length > MAX_DISRUPTED_PODS) {
    throw budgetForbids(name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (allowed === 0) {
    const needs = `needs ${numberAt(status, 'desiredHealthy')} healthy pods and has ${numberAt(status, 'currentHealthy')} currently`;
    throw tooManyRequests(0, `The disruption budget ${name} ${needs}`);
  }
  status['disruptionsAllowed'] = allowed - 1;
  if (allowed - 1 === 0) setDisruptionAllowedCondition(status, now);
  if (!dryRun) status['disruptedPods'] = { ...disrupted, [podName]: timestamp(now) };
  return budget;
}

/**
 * The DisruptionAllowed condition for a budget with no disruption left (upstream's
 * UpdateDisruptionAllowedCondition and SetStatusCondition): the transition time moves only when
 * the condition's status changes.
 */
function setDisruptionAllowedCondition(status: JsonRecord, now: number): void {
  const conditions = recordsAt(status, 'conditions');
  const existing = conditions.find((c) => c['type'] === 'DisruptionAllowed');
  const observedGeneration = numberAt(status, 'observedGeneration');
  const condition: JsonRecord = {
    type: 'DisruptionAllowed',
    status: 'False',
    ...(observedGeneration !== 0 ? { observedGeneration } : {}),
    lastTransitionTime: existing?.['status'] === 'False' ? existing['lastTransitionTime'] : timestamp(now),
    reason: 'InsufficientPods',
    message: '',
  };
  status['conditions'] = existing ? conditions.map((c) => (c === existing ? condition : c)) : [...conditions, condition];
}

function budgetForbids(budgetName: string, why: string): ApiError {
  return forbidden(`poddisruptionbudget.policy "${budgetName}" is forbidden: ${why}`, {
    name: budgetName,
    group: 'policy',
    kind: 'poddisruptionbudget',
  });
}

/** Upstream's 429 for an eviction a budget refuses; Retry-After only when there is a suggestion. */
function tooManyRequests(retryAfterSeconds: number, cause: string): ApiError {
  return new ApiError(
    429,
    'TooManyRequests',
    "Cannot evict pod as it would violate the pod's disruption budget.",
    { causes: [{ reason: DISRUPTION_BUDGET_CAUSE, message: cause }], ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}) },
    retryAfterSeconds > 0 ? { 'Retry-After': String(retryAfterSeconds) } : undefined,
  );
}

function numberAt(parent: unknown, key: string): number {
  const value = isRecord(parent) ? parent[key] : undefined;
  return typeof value === 'number' ? value : 0;
}
