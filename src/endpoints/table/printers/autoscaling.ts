/**
 * Horizontal pod autoscalers of autoscaling/v2 and v1. TARGETS shows up to two metrics as
 * `current/target` (`cpu: 40%/80%`, `5/10 (avg)`), with `<unknown>` until the controller reports a
 * current value. v1 has a single CPU utilization target.
 */
import { quantityText } from '../cell-format.js';
import { num, objects, optionalObject, path, text, type JsonObject } from '../object-fields.js';
import { cellsPrinter, type PrintedCells, type PrinterTable } from '../printer.js';

const UNKNOWN = '<unknown>';

/** The spec/status member named by the metric type ("Resource" → "resource", "ContainerResource" → "containerResource"). */
function member(metric: JsonObject): JsonObject | undefined {
  const type = text(metric.type);
  return optionalObject(metric[type.charAt(0).toLowerCase() + type.slice(1)]);
}

function percent(value: unknown): string | undefined {
  return typeof value === 'number' ? `${value}%` : undefined;
}

/** `current/target` for metrics measured as a value or an average value (Object, External). */
function valueMetric(target: JsonObject, current: JsonObject | undefined): string {
  if (target.averageValue !== undefined && target.averageValue !== null) {
    const now = current?.averageValue !== undefined ? quantityText(current.averageValue) : UNKNOWN;
    return `${now}/${quantityText(target.averageValue)} (avg)`;
  }
  const now = current === undefined ? UNKNOWN : quantityText(current.value);
  return `${now}/${quantityText(target.value)}`;
}

/** `name: current/target` for Resource and ContainerResource metrics. */
function resourceMetric(spec: JsonObject, status: JsonObject | undefined): string {
  const target = optionalObject(spec.target) ?? {};
  const current = optionalObject(status?.current);
  const name = text(spec.name);
  if (target.averageValue !== undefined && target.averageValue !== null) {
    const now = status === undefined ? UNKNOWN : quantityText(current?.averageValue);
    return `${name}: ${now}/${quantityText(target.averageValue)}`;
  }
  const now = percent(current?.averageUtilization) ?? UNKNOWN;
  return `${name}: ${now}/${percent(target.averageUtilization) ?? '<auto>'}`;
}

function metricText(spec: JsonObject, status: JsonObject | undefined): string {
  const source = member(spec) ?? {};
  const current = status === undefined ? undefined : member(status);
  switch (spec.type) {
    case 'External':
    case 'Object':
      return valueMetric(optionalObject(source.target) ?? {}, optionalObject(current?.current));
    case 'Pods': {
      const now = current === undefined ? UNKNOWN : quantityText(path(current, 'current', 'averageValue'));
      return `${now}/${quantityText(path(source, 'target', 'averageValue'))}`;
    }
    case 'Resource':
    case 'ContainerResource':
      return resourceMetric(source, current);
    default:
      return '<unknown type>';
  }
}

function targetsText(specs: readonly JsonObject[], statuses: readonly JsonObject[]): string {
  if (specs.length === 0) return '<none>';
  const rendered = specs.map((spec, i) => metricText(spec, statuses[i]));
  const shown = rendered.slice(0, 2).join(', ');
  return rendered.length > 2 ? `${shown} + ${rendered.length - 2} more...` : shown;
}

/** v1 keeps one CPU target; it reads like a v2 Resource metric. */
function v1Targets(hpa: JsonObject): string {
  const target = path(hpa, 'spec', 'targetCPUUtilizationPercentage');
  if (typeof target !== 'number') return '<none>';
  const current = percent(path(hpa, 'status', 'currentCPUUtilizationPercentage')) ?? UNKNOWN;
  return `cpu: ${current}/${target}%`;
}

function hpaCells(hpa: JsonObject, targets: string): PrintedCells {
  const ref = optionalObject(path(hpa, 'spec', 'scaleTargetRef')) ?? {};
  const minReplicas = path(hpa, 'spec', 'minReplicas');
  return {
    Reference: `${text(ref.kind)}/${text(ref.name)}`,
    Targets: targets,
    MinPods: typeof minReplicas === 'number' ? String(minReplicas) : '<unset>',
    MaxPods: num(path(hpa, 'spec', 'maxReplicas')),
    Replicas: num(path(hpa, 'status', 'currentReplicas')),
  };
}

/**
 * Printers keyed by "group/resource". Both versions share the resource name, so the v1 printer is
 * chosen by version (see printerFor).
 */
export const autoscalingPrinters: PrinterTable = {
  'autoscaling/horizontalpodautoscalers': cellsPrinter((hpa) =>
    hpaCells(hpa, targetsText(objects(path(hpa, 'spec', 'metrics')), objects(path(hpa, 'status', 'currentMetrics'))))),
  'autoscaling/v1/horizontalpodautoscalers': cellsPrinter((hpa) => hpaCells(hpa, v1Targets(hpa))),
};
