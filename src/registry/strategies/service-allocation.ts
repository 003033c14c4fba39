/**
 * Reserving a Service's cluster IP and node ports (upstream's service REST allocators), as a
 * Reservation the store settles after the write: on failure everything newly taken is given
 * back; on success an update gives back what the old Service held and the new one does not.
 * Dry runs take nothing: they check requested values and show values that are free right now.
 */
import { internalError, invalid, type ApiError, type FieldError } from '../../api/errors.js';
import { metaOf, type KubeObject } from '../object.js';
import type { Reservation, StrategyContext } from '../strategy.js';
import { AllocationError, type Allocator } from '../allocators/allocator.js';
import { fieldInvalid } from '../../validation/field-errors.js';
import { asRecord, asStringArray, recordsAt } from './json-access.js';
import {
  CLUSTER_IP_NONE,
  heldNodePorts,
  mayHoldNodePorts,
  needsClusterIP,
  needsHealthCheckNodePort,
  needsNodePorts,
  primaryClusterIP,
} from './service-fields.js';
import type { ServiceAllocators } from './strategy-deps.js';

/** What one write took so far, to give back if the write fails. */
class Ledger {
  private readonly undo: (() => Promise<void>)[] = [];

  took<T>(allocator: Allocator<T>, value: T): void {
    this.undo.push(() => allocator.release(value));
  }

  async rollback(): Promise<void> {
    for (const release of this.undo.reverse()) await release().catch(() => undefined);
    this.undo.length = 0;
  }
}

const NOTHING: Reservation = { settle: async () => undefined };

export class ServiceAllocation {
  constructor(private readonly allocators: ServiceAllocators) {}

  /** Fills and reserves the cluster IP and node ports of a new Service. Throws 422 or 500. */
  async reserveForCreate(service: KubeObject, ctx: StrategyContext): Promise<Reservation> {
    const ledger = new Ledger();
    try {
      await this.reserve(service, undefined, ctx, ledger);
    } catch (err) {
      await ledger.rollback();
      throw err;
    }
    return ctx.dryRun ? NOTHING : { settle: async (committed) => (committed ? undefined : ledger.rollback()) };
  }

  /** Reserves what an update adds; on success frees what it dropped. Throws 422 or 500. */
  async reserveForUpdate(service: KubeObject, old: KubeObject, ctx: StrategyContext): Promise<Reservation> {
    if (ctx.subresource !== '') return NOTHING;
    const ledger = new Ledger();
    try {
      await this.reserve(service, old, ctx, ledger);
    } catch (err) {
      await ledger.rollback();
      throw err;
    }
    if (ctx.dryRun) return NOTHING;
    return {
      settle: async (committed) => {
        if (!committed) return ledger.rollback();
        await this.releaseDropped(service, old).catch(() => undefined);
      },
    };
  }

  /** Gives back everything a deleted Service held. Never throws. */
  async releaseAll(service: KubeObject): Promise<void> {
    await this.releaseDropped(undefined, service).catch(() => undefined);
  }

  private async reserve(service: KubeObject, old: KubeObject | undefined, ctx: StrategyContext, ledger: Ledger): Promise<void> {
    const owner = `services/${metaOf(service).namespace ?? ''}/${metaOf(service).name ?? ''}`;
    await this.reserveClusterIP(service, old, ctx, ledger, owner);
    await this.reserveNodePorts(service, old, ctx, ledger, owner);
  }

  private async reserveClusterIP(service: KubeObject, old: KubeObject | undefined, ctx: StrategyContext, ledger: Ledger, owner: string): Promise<void> {
    const allocator = this.allocators.clusterIps;
    if (!allocator || !needsClusterIP(service)) return;
    const spec = asRecord(service, 'spec');
    const requested = primaryClusterIP(service);
    if (requested === CLUSTER_IP_NONE) return;
    if (old && needsClusterIP(old) && requested !== '' && requested === primaryClusterIP(old)) return;
    let ip = requested;
    if (requested === '') {
      ip = await next(allocator, ctx, owner, 'serviceIP');
      if (!ctx.dryRun) ledger.took(allocator, ip);
    } else {
      const failure = await take(allocator, requested, ctx, owner);
      if (failure !== undefined) {
        const why = failure === 'taken' ? 'provided IP is already allocated' : `the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${allocator.range}`;
        const value = asStringArray(spec['clusterIPs']);
        throw invalidService(service, fieldInvalid('spec.clusterIPs', value, `failed to allocate IP ${requested}: ${why}`));
      }
      if (!ctx.dryRun) ledger.took(allocator, requested);
    }
    spec['clusterIP'] = ip;
    spec['clusterIPs'] = [ip, ...asStringArray(spec['clusterIPs']).slice(1)];
  }

  private async reserveNodePorts(service: KubeObject, old: KubeObject | undefined, ctx: StrategyContext, ledger: Ledger, owner: string): Promise<void> {
    const allocator = this.allocators.nodePorts;
    if (!allocator) return;
    const spec = asRecord(service, 'spec');
    const oldPorts = new Set(old ? heldNodePorts(old) : []);
    const takenHere = new Set<number>();
    const reserveSpecific = async (port: number, field: string, prefix = ''): Promise<void> => {
      if (oldPorts.has(port) || takenHere.has(port)) return;
      const failure = await take(allocator, port, ctx, owner);
      if (failure !== undefined) {
        const why = failure === 'taken' ? 'provided port is already allocated' : `provided port is not in the valid range. The range of valid ports is ${allocator.range}`;
        throw prefix === '' ? invalidService(service, fieldInvalid(field, port, why)) : internalError(new Error(`${prefix}: ${why}`));
      }
      takenHere.add(port);
      if (!ctx.dryRun) ledger.took(allocator, port);
    };
    const reserveNext = async (): Promise<number> => {
      const port = await next(allocator, ctx, owner, 'nodePort');
      takenHere.add(port);
      if (!ctx.dryRun) ledger.took(allocator, port);
      return port;
    };
    if (mayHoldNodePorts(service)) {
      const byServicePort = new Map<unknown, number>();
      const ports = recordsAt(spec, 'ports');
      for (const [i, port] of ports.entries()) {
        const requested = typeof port['nodePort'] === 'number' && port['nodePort'] > 0 ? port['nodePort'] : 0;
        if (requested === 0 && !needsNodePorts(service)) continue;
        // Ports that differ only in protocol share one node port, a requested one if any.
        const sibling = byServicePort.get(port['port']) ?? requestedLater(ports.slice(i + 1), port['port']);
        if (requested !== 0) await reserveSpecific(requested, `spec.ports[${i}].nodePort`);
        else if (sibling !== undefined) {
          await reserveSpecific(sibling, `spec.ports[${i}].nodePort`);
          port['nodePort'] = sibling;
        } else port['nodePort'] = await reserveNext();
        if (sibling === undefined) byServicePort.set(port['port'], port['nodePort'] as number);
      }
    }
    if (needsHealthCheckNodePort(service)) {
      const requested = spec['healthCheckNodePort'];
      if (typeof requested === 'number' && requested > 0) {
        await reserveSpecific(requested, 'spec.healthCheckNodePort', `failed to allocate requested HealthCheck NodePort ${requested}`);
      } else {
        spec['healthCheckNodePort'] = await reserveNext();
      }
    }
  }

  /** Releases what `old` held and `service` (when given) no longer does. */
  private async releaseDropped(service: KubeObject | undefined, old: KubeObject): Promise<void> {
    const { clusterIps, nodePorts } = this.allocators;
    const oldIP = needsClusterIP(old) ? primaryClusterIP(old) : '';
    const newIP = service && needsClusterIP(service) ? primaryClusterIP(service) : '';
    if (clusterIps && oldIP !== '' && oldIP !== CLUSTER_IP_NONE && oldIP !== newIP) await clusterIps.release(oldIP);
    if (!nodePorts) return;
    const kept = new Set(service ? heldNodePorts(service) : []);
    for (const port of heldNodePorts(old)) if (!kept.has(port)) await nodePorts.release(port);
  }
}

/** The node port a later entry with the same port number asks for. */
function requestedLater(ports: readonly Record<string, unknown>[], servicePort: unknown): number | undefined {
  const match = ports.find((p) => p['port'] === servicePort && typeof p['nodePort'] === 'number' && p['nodePort'] > 0);
  return match?.['nodePort'] as number | undefined;
}

/** Takes `value` (or, for a dry run, checks it is free): undefined on success. */
async function take<T>(allocator: Allocator<T>, value: T, ctx: StrategyContext, owner: string): Promise<'taken' | 'out-of-range' | undefined> {
  if (!allocator.contains(value)) return 'out-of-range';
  if (ctx.dryRun) return (await allocator.isFree(value)) ? undefined : 'taken';
  try {
    await allocator.allocate(value, owner);
    return undefined;
  } catch (err) {
    if (err instanceof AllocationError && err.failure !== 'full') return err.failure;
    throw err;
  }
}

/** A free value, taken (or, for a dry run, only found). Throws 500 when the range is full. */
async function next<T>(allocator: Allocator<T>, ctx: StrategyContext, owner: string, noun: string): Promise<T> {
  try {
    return ctx.dryRun ? await allocator.peekNext() : await allocator.allocateNext(owner);
  } catch (err) {
    if (err instanceof AllocationError) throw internalError(new Error(`failed to allocate a ${noun}: range is full`));
    throw err;
  }
}

function invalidService(service: KubeObject, error: FieldError): ApiError {
  return invalid('Service', '', metaOf(service).name ?? '', [error]);
}
