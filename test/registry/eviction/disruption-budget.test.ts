/**
 * The budget rules of an eviction, case by case as upstream's eviction REST decides them: which
 * budgets cover a pod, and how one allowed disruption is spent or refused.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors.js';
import { budgetsCovering, canIgnoreBudgets, spendDisruption, unhealthyPodMayGo } from '../../../src/registry/eviction/disruption-budget.js';
import type { KubeObject } from '../../../src/registry/object.js';

const NOW = Date.parse('2026-11-21T10:00:00Z');

const pod = (labels: Record<string, string>, status: Record<string, unknown> = {}): KubeObject => ({ metadata: { name: 'p', labels }, status });
const budget = (name: string, spec: Record<string, unknown>, status: Record<string, unknown> = {}, generation = 1): KubeObject => ({
  metadata: { name, generation },
  spec,
  status: { observedGeneration: 1, ...status },
});

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  assert.fail('expected a refusal');
}

describe('budgetsCovering', () => {
  it('takes budgets whose selector selects the pod; none without a selector, all with an empty one, none with an invalid one', () => {
    const budgets = [
      budget('match', { selector: { matchLabels: { app: 'web' } } }),
      budget('other', { selector: { matchLabels: { app: 'db' } } }),
      budget('no-selector', {}),
      budget('empty', { selector: {} }),
      budget('expression', { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] } }),
      budget('invalid', { selector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['web'] }] } }),
    ];
    const names = budgetsCovering(budgets, pod({ app: 'web' })).map((b) => b.metadata!.name);
    assert.deepEqual(names, ['match', 'empty', 'expression']);
  });
});

describe('canIgnoreBudgets', () => {
  it('lets pending, finished and terminating pods go without asking', () => {
    for (const phase of ['Pending', 'Succeeded', 'Failed']) assert.equal(canIgnoreBudgets(pod({}, { phase })), true, phase);
    assert.equal(canIgnoreBudgets(pod({}, { phase: 'Running' })), false);
    assert.equal(canIgnoreBudgets(pod({}, {})), false, 'a pod without a phase is guarded');
    assert.equal(canIgnoreBudgets({ metadata: { deletionTimestamp: '2026-11-21T09:00:00Z' }, status: { phase: 'Running' } }), true);
  });
});

describe('unhealthyPodMayGo', () => {
  it('AlwaysAllow always; IfHealthyBudget only when the budget is satisfied without the pod', () => {
    assert.equal(unhealthyPodMayGo(budget('b', { unhealthyPodEvictionPolicy: 'AlwaysAllow' }, { currentHealthy: 0, desiredHealthy: 3 })), true);
    assert.equal(unhealthyPodMayGo(budget('b', {}, { currentHealthy: 3, desiredHealthy: 3 })), true);
    assert.equal(unhealthyPodMayGo(budget('b', {}, { currentHealthy: 2, desiredHealthy: 3 })), false);
    assert.equal(unhealthyPodMayGo(budget('b', { unhealthyPodEvictionPolicy: 'IfHealthyBudget' }, { currentHealthy: 0, desiredHealthy: 0 })), false);
  });
});

describe('spendDisruption', () => {
  it('decrements, records the pod, and sets DisruptionAllowed=False when none is left', () => {
    const spent = spendDisruption(budget('b', {}, { disruptionsAllowed: 1, disruptedPods: { old: '2026-11-21T09:59:00Z' } }), 'p', NOW, false);
    const status = spent['status'] as any;
    assert.equal(status.disruptionsAllowed, 0);
    assert.deepEqual(status.disruptedPods, { old: '2026-11-21T09:59:00Z', p: '2026-11-21T10:00:00Z' });
    assert.deepEqual(status.conditions, [
      { type: 'DisruptionAllowed', status: 'False', observedGeneration: 1, lastTransitionTime: '2026-11-21T10:00:00Z', reason: 'InsufficientPods', message: '' },
    ]);
  });

  it('keeps the condition as it is while disruptions are left, and its transition time when already False', () => {
    const plenty = spendDisruption(budget('b', {}, { disruptionsAllowed: 3 }), 'p', NOW, false)['status'] as any;
    assert.equal(plenty.disruptionsAllowed, 2);
    assert.equal(plenty.conditions, undefined);
    const earlier = { type: 'DisruptionAllowed', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'InsufficientPods', message: 'x' };
    const again = spendDisruption(budget('b', {}, { disruptionsAllowed: 1, conditions: [earlier] }), 'p', NOW, false)['status'] as any;
    assert.equal(again.conditions[0].lastTransitionTime, '2026-01-01T00:00:00Z');
    assert.equal(again.conditions[0].message, '');
  });

  it('records nothing on a dry run', () => {
    const status = spendDisruption(budget('b', {}, { disruptionsAllowed: 2 }), 'p', NOW, true)['status'] as any;
    assert.equal(status.disruptionsAllowed, 1);
    assert.equal(status.disruptedPods, undefined);
  });

  it('refuses as upstream does', () => {
    const stale = refusal(() => spendDisruption(budget('b', {}, { disruptionsAllowed: 1 }, 2), 'p', NOW, false));
    assert.equal(stale.code, 429);
    assert.deepEqual(stale.details, { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget b is still being processed by the server.' }], retryAfterSeconds: 10 });
    assert.deepEqual(stale.headers, { 'Retry-After': '10' });

    const negative = refusal(() => spendDisruption(budget('b', {}, { disruptionsAllowed: -1 }), 'p', NOW, false));
    assert.equal(negative.code, 403);
    assert.equal(negative.message, 'poddisruptionbudget.policy "b" is forbidden: pdb disruptions allowed is negative');

    const disruptedPods = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`p${i}`, '2026-11-21T09:00:00Z']));
    const crowded = refusal(() => spendDisruption(budget('b', {}, { disruptionsAllowed: 5, disruptedPods }), 'p', NOW, false));
    assert.equal(crowded.code, 403);
    assert.match(crowded.message, /DisruptedPods map too big - too many evictions not confirmed by PDB controller$/);

    const none = refusal(() => spendDisruption(budget('b', {}, { disruptionsAllowed: 0, desiredHealthy: 2, currentHealthy: 2 }), 'p', NOW, false));
    assert.equal(none.code, 429);
    assert.equal(none.message, "Cannot evict pod as it would violate the pod's disruption budget.");
    assert.deepEqual(none.details, { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget b needs 2 healthy pods and has 2 currently' }] });
    assert.equal(none.headers, undefined);
  });
});
