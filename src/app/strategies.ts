/**
 * Builds the strategy of every resource type from the server's options: name validators,
 * schema-derived facts, and the allocators behind Services.
 */
import type { ServerOptions } from '../cli/options.js';
import type { ResourceDefinition } from '../registry/catalog/resource-definition.js';
import type { KeyLayout } from '../registry/keys.js';
import type { SchemaSet } from '../registry/schema/schema-set.js';
import { schemaFieldsFrom } from '../registry/strategies/schema-fields.js';
import { strategyFor } from '../registry/strategies/strategy-table.js';
import { BUILTIN_NAME_VALIDATORS } from '../registry/strategies/strategy-deps.js';
import type { Strategy } from '../registry/strategy.js';
import type { Storage } from '../storage/storage.js';
import { createServiceAllocators } from '../registry/allocators/service-allocators.js';

export interface StrategyWiring {
  readonly options: ServerOptions;
  readonly schemas: SchemaSet;
  readonly storage: Storage;
  readonly keys: KeyLayout;
  /** Whether a service account exists (Pod admission adds its token volume only then). */
  readonly serviceAccountExists: (namespace: string, name: string) => boolean | undefined;
}

export function buildStrategies(wiring: StrategyWiring): (definition: ResourceDefinition) => Strategy {
  const schemaFields = schemaFieldsFrom(wiring.schemas);
  const { options } = wiring;
  const allocators = createServiceAllocators({
    storage: wiring.storage,
    storePrefix: options.store.prefix,
    clusterIpRanges: options.services.clusterIpRanges,
    nodePortRange: options.services.nodePortRange,
  });
  const pods = {
    notReadyTolerationSeconds: options.defaultTolerationSeconds.notReady,
    unreachableTolerationSeconds: options.defaultTolerationSeconds.unreachable,
    serviceAccountExists: wiring.serviceAccountExists,
  };
  const containers = { allowPrivileged: options.allowPrivileged };
  return (definition) => strategyFor(definition, { validateName: BUILTIN_NAME_VALIDATORS, schemaFields, allocators, pods, containers });
}
