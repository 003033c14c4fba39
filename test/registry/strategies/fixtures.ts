/** Shared fixtures of the strategy tests: real built-in definitions and simple name validators. */
import assert from 'node:assert/strict';
import { loadBuiltinCatalog } from '../../../src/registry/catalog/builtin-catalog.js';
import type { ResourceDefinition } from '../../../src/registry/catalog/resource-definition.js';
import { loadBuiltinSchemas } from '../../../src/registry/schema/schema-set.js';
import type { KubeObject } from '../../../src/registry/object.js';
import type { Strategy, StrategyContext } from '../../../src/registry/strategy.js';
import { schemaFieldsFrom } from '../../../src/registry/strategies/schema-fields.js';
import type { NameValidators, StrategyDeps } from '../../../src/registry/strategies/strategy-deps.js';
import { strategyFor } from '../../../src/registry/strategies/strategy-table.js';

const catalog = loadBuiltinCatalog();
const schemas = loadBuiltinSchemas();

function pattern(re: RegExp, message: string): (name: string) => string[] {
  return (name) => (re.test(name) ? [] : [message]);
}

/** Stand-ins that say which rule ran. */
export const testValidators: NameValidators = {
  dns1123Subdomain: pattern(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/, 'subdomain'),
  dns1123Label: pattern(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'label'),
  dns1035Label: pattern(/^[a-z]([-a-z0-9]*[a-z0-9])?$/, 'dns1035'),
  rbacName: pattern(/^(?!\.\.?$)[^/%]+$/, 'segment'),
  unconstrained: () => [],
};

export function definition(group: string, resource: string): ResourceDefinition {
  const found = catalog.groupVersions().filter((gv) => gv.group === group).flatMap((gv) => gv.resources).find((r) => r.resource === resource);
  assert.ok(found, `no definition ${group}/${resource}`);
  return found;
}

export function testDeps(overrides: Partial<StrategyDeps> = {}): StrategyDeps {
  return { validateName: testValidators, schemaFields: schemaFieldsFrom(schemas), allocators: {}, ...overrides };
}

export function strategy(group: string, resource: string, deps: StrategyDeps = testDeps()): Strategy {
  return strategyFor(definition(group, resource), deps);
}

export function ctx(overrides: Partial<StrategyContext> = {}): StrategyContext {
  return { now: Date.UTC(2026, 10, 21), dryRun: false, subresource: '', ...overrides };
}

/** Runs prepareForCreate on a copy and returns it. */
export function created(s: Strategy, object: KubeObject, c: StrategyContext = ctx()): KubeObject {
  const copy = structuredClone(object);
  s.prepareForCreate(copy, c);
  return copy;
}

/** Runs prepareForUpdate of `object` over `old` on a copy and returns it. */
export function updated(s: Strategy, object: KubeObject, old: KubeObject, c: StrategyContext = ctx()): KubeObject {
  const copy = structuredClone(object);
  s.prepareForUpdate(copy, structuredClone(old), c);
  return copy;
}

/** `field: message` of each error, as the Status message prints them. */
export function messages(errors: readonly { field: string; message: string }[]): string[] {
  return errors.map((e) => `${e.field}: ${e.message}`);
}
