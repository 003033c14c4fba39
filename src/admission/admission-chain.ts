/**
 * From the enabled admission plugins to the checks the registry runs. Capstan honours five of
 * upstream's plugins by name (HONOURED_ADMISSION_PLUGINS); the others are accepted by the flags and change nothing here (what
 * Capstan does in their place it does whatever the flags say).
 */
import type { NamespaceGate, WriteAdmission } from '../registry/store/store-context.js';
import { AlwaysDeny } from './always-deny.js';
import { NamespaceAutoProvision, type CreateNamespace } from './namespace-auto-provision.js';
import { NamespaceExists } from './namespace-exists.js';
import { NamespaceGates } from './namespace-gates.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';
import { namespaceLookup, type CachedNamespace, type NamespaceReader } from './namespace-lookup.js';

/** What upstream logs when it builds these plugins (one full stop fewer for AlwaysDeny, as upstream's). */
const DEPRECATION_WARNINGS: Readonly<Record<string, string>> = {
  AlwaysAdmit: 'AlwaysAdmit admission controller is deprecated. Please remove this controller from your configuration files and scripts.',
  AlwaysDeny: 'AlwaysDeny admission controller is deprecated. Please remove this controller from your configuration files and scripts',
};

export interface AdmissionDeps {
  readonly readNamespace: NamespaceReader;
  readonly cachedNamespace: CachedNamespace;
  readonly createNamespace: CreateNamespace;
  readonly warn: (message: string) => void;
}

export interface AdmissionChain {
  /** Run before namespaced creates; undefined when no namespace plugin is enabled. */
  readonly namespaces: NamespaceGate | undefined;
  /** Run before every API write; undefined when no such plugin is enabled. */
  readonly writes: WriteAdmission | undefined;
}

/** Builds the checks of the `enabled` plugins (upstream's order), warning as upstream does. */
export function buildAdmissionChain(enabled: readonly string[], deps: AdmissionDeps): AdmissionChain {
  for (const name of enabled) {
    const warning = DEPRECATION_WARNINGS[name];
    if (warning !== undefined) deps.warn(warning);
  }
  const on = new Set(enabled);
  const lookup = namespaceLookup(deps.readNamespace, deps.cachedNamespace);
  const gates: NamespaceGate[] = [];
  if (on.has('NamespaceAutoProvision')) gates.push(new NamespaceAutoProvision(lookup, deps.createNamespace));
  if (on.has('NamespaceLifecycle')) gates.push(new NamespaceLifecycle(deps.readNamespace, deps.cachedNamespace));
  if (on.has('NamespaceExists')) gates.push(new NamespaceExists(lookup));
  // The default (NamespaceLifecycle alone) is installed bare: a create costs what it cost before.
  const namespaces = gates.length <= 1 ? gates[0] : new NamespaceGates(gates);
  return { namespaces, writes: on.has('AlwaysDeny') ? new AlwaysDeny() : undefined };
}
