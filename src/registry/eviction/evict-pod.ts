/**
 * Evicting a pod (the pods/eviction subresource, what `kubectl drain` uses): a delete that first
 * asks the pod's PodDisruptionBudget, following upstream's eviction REST step by step.
 *
 * 1. A pod that is finished, pending or already going is deleted at once: budgets guard only
 *    running pods.
 * 2. Otherwise the budgets covering the pod are found. More than one is refused (upstream answers
 *    with a Failure Status rather than an error; the caller writes it). None: delete.
 * 3. With one budget, a ready pod spends one of its allowed disruptions (recorded in the budget's
 *    status, refused with 429 when none is left). An unready pod may go without spending one when
 *    the budget is satisfied without it.
 *
 * Every delete first marks the pod with the DisruptionTarget condition, and names the pod's
 * resourceVersion where a pod that turned ready in the meantime must not be deleted on a decision
 * taken while it was not. Knows nothing of HTTP.
 */
import { ApiError } from '../../api/errors.js';
import { metaOf, timestamp, type KubeObject } from '../object.js';
import { checkDeletePreconditions, type DeleteObjectRequest } from '../store/delete.js';
import type { ResourceStore } from '../store/resource-store.js';
import type { JsonRecord } from '../strategies/json-access.js';
import { setPodCondition } from '../strategies/pod-condition.js';
import {
  budgetsCovering, budgetStillProcessing, canIgnoreBudgets, isPodReady, mustPinResourceVersion, spendDisruption, unhealthyPodMayGo,
} from './disruption-budget.js';

export interface EvictionStores {
  readonly pods: ResourceStore;
  readonly budgets: ResourceStore;
}

export interface EvictionRequest {
  readonly namespace: string;
  readonly name: string;
  /** The Eviction's deleteOptions, dry run included. */
  readonly delete: DeleteObjectRequest;
  /** ms since epoch. */
  readonly now: () => number;
}

/** 'several-budgets': refused, because more than one budget covers the pod. */
export type EvictionOutcome = 'evicted' | 'several-budgets';

/**
 * How often the deletion of a pod that needs no budget is tried again when the pod changed between
 * its read and its delete (upstream: 20 tries, 500 ms apart; here each try reads afresh at once).
 */
const ATTEMPTS = 20;

const POD_KIND = { kind: 'Pod', group: '' };

export async function evictPod(stores: EvictionStores, request: EvictionRequest): Promise<EvictionOutcome> {
  const { namespace, name } = request;
  const callerPinned = request.delete.preconditions?.resourceVersion !== undefined;
  let pod: KubeObject;
  for (let attempt = 1; ; attempt++) {
    pod = await stores.pods.get(namespace, name, { kind: 'consistent' });
    if (!canIgnoreBudgets(pod)) break;
    const options = mustPinResourceVersion(pod) && !callerPinned ? pinned(request.delete, pod) : request.delete;
    try {
      await markAndDelete(stores.pods, request, options);
      return 'evicted';
    } catch (err) {
      // A caller's own resourceVersion is a precondition to honour, not a race to retry.
      if (callerPinned || !isConflict(err) || attempt === ATTEMPTS) throw err;
    }
  }

  const { items } = await stores.budgets.list({ namespace, at: { kind: 'consistent' } });
  const covering = budgetsCovering(items, pod);
  if (covering.length > 1) return 'several-budgets';
  const budget = covering[0];
  let pinnedForHealth = false;
  if (budget !== undefined) {
    const budgetName = metaOf(budget).name ?? '';
    if (!isPodReady(pod) && unhealthyPodMayGo(budget)) {
      pinnedForHealth = true;
    } else {
      const dryRun = request.delete.dryRun;
      await stores.budgets.update(namespace, budgetName, (latest) => spendDisruption(latest, name, request.now(), dryRun), {
        dryRun,
        subresource: 'status',
      });
    }
    try {
      await markAndDelete(stores.pods, request, pinnedForHealth ? pinned(request.delete, pod) : request.delete);
    } catch (err) {
      // The unready pod changed (it may be ready now): the client should ask again.
      if (pinnedForHealth && !callerPinned && isConflict(err)) throw budgetStillProcessing(budgetName);
      throw err;
    }
    return 'evicted';
  }
  await markAndDelete(stores.pods, request, request.delete);
  return 'evicted';
}

/**
 * Adds the DisruptionTarget condition to the pod's status (checking the delete's preconditions
 * against the latest pod), then deletes it. A dry run only deletes, as a dry run.
 */
async function markAndDelete(pods: ResourceStore, request: EvictionRequest, options: DeleteObjectRequest): Promise<void> {
  let deleteOptions = options;
  if (!options.dryRun) {
    const { object } = await pods.update(
      request.namespace,
      request.name,
      (latest) => {
        checkPreconditions(latest, options);
        const status = (latest['status'] ??= {}) as JsonRecord;
        setPodCondition(status, { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' }, timestamp(request.now()));
        return latest;
      },
      { dryRun: false, subresource: 'status' },
    );
    // The condition moved the resourceVersion; a pinned delete names the one just written.
    if (options.preconditions?.resourceVersion !== undefined) deleteOptions = pinned(options, object);
  }
  await pods.delete(request.namespace, request.name, deleteOptions);
}

/** The delete's preconditions, checked on the latest pod as a delete checks them; empty ones are no preconditions here. */
function checkPreconditions(pod: KubeObject, options: DeleteObjectRequest): void {
  const { uid, resourceVersion } = options.preconditions ?? {};
  checkDeletePreconditions(POD_KIND, pod, { ...(uid ? { uid } : {}), ...(resourceVersion ? { resourceVersion } : {}) });
}

/** `options` with the pod's current resourceVersion as a precondition. */
function pinned(options: DeleteObjectRequest, pod: KubeObject): DeleteObjectRequest {
  return { ...options, preconditions: { ...options.preconditions, resourceVersion: metaOf(pod).resourceVersion ?? '' } };
}

function isConflict(err: unknown): boolean {
  return err instanceof ApiError && err.reason === 'Conflict';
}
