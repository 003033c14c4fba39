/**
 * Pods: READY x/y, STATUS with upstream's reason logic, RESTARTS with the time of the last
 * restart, and the wide columns. The STATUS rules, in the order they apply:
 *  1. phase, replaced by status.reason when set, by SchedulingGated when the PodScheduled
 *     condition says so;
 *  2. the first init container that has not finished gives Init:<reason>, Init:ExitCode:N,
 *     Init:Signal:N or Init:i/n (sidecars that started count as done);
 *  3. once initialized, the last container with a waiting or terminated reason gives it; a
 *     "Completed" pod with running containers reads Running (if Ready) or NotReady;
 *  4. a pod being deleted reads Terminating, or Unknown when its node was lost.
 */
import { humanDuration, parseTimestamp } from '../human-duration.js';
import { num, objectAt, objects, optionalObject, path, text, type JsonObject } from '../object-fields.js';
import type { PrintContext, PrintedCells, Printer } from '../printer.js';
import type { TableRowCondition } from '../table-types.js';

/** Restart counts and the latest restart, as milliseconds (-Infinity: none seen). */
interface Restarts {
  count: number;
  last: number;
}

function lastTermination(status: JsonObject): number {
  return parseTimestamp(path(status, 'lastState', 'terminated', 'finishedAt')) ?? -Infinity;
}

function addRestarts(into: Restarts, status: JsonObject): void {
  into.count += num(status.restartCount);
  into.last = Math.max(into.last, lastTermination(status));
}

/** A sidecar: an init container that keeps running for the pod's life. */
function isRestartable(container: JsonObject | undefined): boolean {
  return container !== undefined && container.restartPolicy === 'Always';
}

function conditions(pod: JsonObject): JsonObject[] {
  return objects(path(pod, 'status', 'conditions'));
}

function readyConditionTrue(pod: JsonObject): boolean {
  return conditions(pod).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Only the first Initialized condition counts, as upstream reads it. */
function initializedConditionTrue(pod: JsonObject): boolean {
  return conditions(pod).find((c) => c.type === 'Initialized')?.status === 'True';
}

function terminatedReason(terminated: JsonObject, prefix: string): string {
  const reason = text(terminated.reason);
  if (reason !== '') return prefix + reason;
  const signal = num(terminated.signal);
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${num(terminated.exitCode)}`;
}

interface PodState {
  reason: string;
  ready: number;
  restarts: Restarts;
}

/** Walks the init containers; returns whether the pod is still initializing. */
function scanInitContainers(pod: JsonObject, state: PodState, sidecarRestarts: Restarts): boolean {
  const specs = objects(path(pod, 'spec', 'initContainers'));
  const byName = new Map(specs.map((c) => [text(c.name), c]));
  const statuses = objects(path(pod, 'status', 'initContainerStatuses'));
  for (const [index, status] of statuses.entries()) {
    addRestarts(state.restarts, status);
    const sidecar = isRestartable(byName.get(text(status.name)));
    if (sidecar) addRestarts(sidecarRestarts, status);
    const terminated = optionalObject(path(status, 'state', 'terminated'));
    const waiting = optionalObject(path(status, 'state', 'waiting'));
    if (terminated !== undefined && num(terminated.exitCode) === 0) continue;
    if (sidecar && status.started === true) {
      if (status.ready === true) state.ready++;
      continue;
    }
    if (terminated !== undefined) state.reason = terminatedReason(terminated, 'Init:');
    else if (waiting !== undefined && text(waiting.reason) !== '' && waiting.reason !== 'PodInitializing') {
      state.reason = `Init:${text(waiting.reason)}`;
    } else state.reason = `Init:${index}/${specs.length}`;
    return true;
  }
  return false;
}

/** Walks the app containers from last to first, as upstream does, so the first container's reason wins. */
function scanContainers(pod: JsonObject, state: PodState): void {
  let hasRunning = false;
  let errorReason = '';
  const statuses = objects(path(pod, 'status', 'containerStatuses'));
  for (let i = statuses.length - 1; i >= 0; i--) {
    const status = statuses[i];
    addRestarts(state.restarts, status);
    const waiting = optionalObject(path(status, 'state', 'waiting'));
    const terminated = optionalObject(path(status, 'state', 'terminated'));
    if (waiting !== undefined && text(waiting.reason) !== '') state.reason = text(waiting.reason);
    else if (terminated !== undefined) {
      state.reason = terminatedReason(terminated, '');
      if (num(terminated.exitCode) !== 0) errorReason = state.reason;
    } else if (status.ready === true && optionalObject(path(status, 'state', 'running')) !== undefined) {
      hasRunning = true;
      state.ready++;
    }
  }
  if (state.reason !== 'Completed') return;
  if (hasRunning && readyConditionTrue(pod)) state.reason = 'Running';
  else if (errorReason !== '') state.reason = errorReason;
  else if (hasRunning) state.reason = 'NotReady';
}

function initialReason(pod: JsonObject): string {
  const status = objectAt(pod.status);
  let reason = text(status.reason) !== '' ? text(status.reason) : text(status.phase);
  if (conditions(pod).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';
  return reason;
}

function podState(pod: JsonObject): PodState {
  const state: PodState = { reason: initialReason(pod), ready: 0, restarts: { count: 0, last: -Infinity } };
  const sidecarRestarts: Restarts = { count: 0, last: -Infinity };
  const initializing = scanInitContainers(pod, state, sidecarRestarts);
  if (!initializing || initializedConditionTrue(pod)) {
    // Once initialized, only sidecars' restarts count besides the app containers'.
    state.restarts = sidecarRestarts;
    scanContainers(pod, state);
  }
  const phase = text(path(pod, 'status', 'phase'));
  const deleting = (path(pod, 'metadata', 'deletionTimestamp') ?? null) !== null;
  if (deleting && path(pod, 'status', 'reason') === 'NodeLost') state.reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') state.reason = 'Terminating';
  return state;
}

function restartsText(restarts: Restarts, now: number): string {
  if (restarts.count === 0 || restarts.last === -Infinity) return String(restarts.count);
  return `${restarts.count} (${humanDuration(now - restarts.last)} ago)`;
}

function readinessGates(pod: JsonObject): string {
  const gates = objects(path(pod, 'spec', 'readinessGates'));
  if (gates.length === 0) return '<none>';
  const present = conditions(pod);
  const passing = gates.filter((gate) => present.find((c) => c.type === gate.conditionType)?.status === 'True').length;
  return `${passing}/${gates.length}`;
}

function orNone(value: string): string {
  return value === '' ? '<none>' : value;
}

function podCells(pod: JsonObject, ctx: PrintContext): PrintedCells {
  const spec = objectAt(pod.spec);
  const sidecars = objects(spec.initContainers).filter(isRestartable).length;
  const state = podState(pod);
  return {
    Ready: `${state.ready}/${objects(spec.containers).length + sidecars}`,
    Status: state.reason,
    Restarts: restartsText(state.restarts, ctx.now),
    IP: orNone(text(objects(path(pod, 'status', 'podIPs'))[0]?.ip)),
    Node: orNone(text(spec.nodeName)),
    'Nominated Node': orNone(text(path(pod, 'status', 'nominatedNodeName'))),
    'Readiness Gates': readinessGates(pod),
  };
}

/** Completed pods are marked so clients can hide them; the messages are ours. */
function podConditions(pod: JsonObject): TableRowCondition[] | undefined {
  switch (path(pod, 'status', 'phase')) {
    case 'Succeeded':
      return [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'All containers of the pod succeeded.' }];
    case 'Failed':
      return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod terminated in failure.' }];
    default:
      return undefined;
  }
}

/** Printer for core/v1 pods. */
export const podPrinter: Printer = { cells: podCells, conditions: podConditions };
