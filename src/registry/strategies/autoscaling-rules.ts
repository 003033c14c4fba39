/**
 * HorizontalPodAutoscalers and PodDisruptionBudgets: upstream's defaults, and the status fields Go
 * always serializes (so a new object shows them as zero).
 */
import { asRecord, defaultTo, isRecord, type JsonRecord } from './json-access.js';
import type { TypeRules } from './rule-strategy.js';

/** Upstream's target when an autoscaler names no metric: 80% average CPU utilization. */
const DEFAULT_CPU_UTILIZATION = 80;

export const HORIZONTAL_POD_AUTOSCALER_RULES: TypeRules = {
  defaults: (hpa, version) => {
    const spec = asRecord(hpa, 'spec');
    defaultTo(spec, 'minReplicas', 1);
    if (version === 'v1') return;
    const metrics = spec['metrics'];
    if (!Array.isArray(metrics) || metrics.length === 0) {
      spec['metrics'] = [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } },
      ];
    }
    if (isRecord(spec['behavior'])) defaultBehavior(spec['behavior']);
  },
  initialStatus: () => ({ currentReplicas: 0, desiredReplicas: 0 }),
};

/** A behavior the client gave is completed with upstream's scale-up and scale-down rules. */
function defaultBehavior(behavior: JsonRecord): void {
  const up = asRecord(behavior, 'scaleUp');
  defaultTo(up, 'stabilizationWindowSeconds', 0);
  defaultTo(up, 'selectPolicy', 'Max');
  defaultTo(up, 'policies', [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ]);
  // The scale-down window stays unset: the controller's command line decides it.
  const down = asRecord(behavior, 'scaleDown');
  defaultTo(down, 'selectPolicy', 'Max');
  defaultTo(down, 'policies', [{ type: 'Percent', value: 100, periodSeconds: 15 }]);
}

export const POD_DISRUPTION_BUDGET_RULES: TypeRules = {
  initialStatus: () => ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }),
};
