/**
 * The admission plugins' wiring: the enabled set from the flags, the configuration file read as
 * upstream reads it (failing the start in its words), and the checks installed on the registry,
 * reading and creating namespaces through the namespaces' store.
 */
import { isNotFound } from '../api/errors.js';
import { buildAdmissionChain } from '../admission/admission-chain.js';
import { readAdmissionConfiguration, type AdmissionConfiguration } from '../admission/admission-config.js';
import { enabledAdmissionPlugins } from '../admission/admission-plugins.js';
import type { AdmissionOptions } from '../cli/options.js';
import type { KubeObject } from '../registry/object.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import type { Logger } from '../server/logger.js';

/** The enabled plugins and their settings, known before anything starts. */
export interface AdmissionPlan {
  readonly enabled: readonly string[];
  /** Each plugin's settings from --admission-control-config-file (none of the honoured plugins takes any). */
  readonly config: AdmissionConfiguration;
}

/**
 * Works out the enabled plugins and reads the configuration file. Throws an Error in upstream's
 * words: `failed to read plugin config: <why>` (see readAdmissionConfiguration).
 */
export function planAdmission(options: AdmissionOptions): AdmissionPlan {
  const enabled = enabledAdmissionPlugins(options.enablePlugins, options.disablePlugins);
  try {
    return { enabled, config: readAdmissionConfiguration(enabled, options.configFile ?? '') };
  } catch (err) {
    throw new Error(`failed to read plugin config: ${(err as Error).message}`);
  }
}

/** Installs the enabled plugins' checks on `registry`; namespaces are read from and created in `namespaces`. */
export function installAdmission(plan: AdmissionPlan, registry: Registry, namespaces: ResourceStore, logger: Logger): void {
  const chain = buildAdmissionChain(plan.enabled, {
    readNamespace: async (name, consistent) => {
      try {
        return await namespaces.get('', name, consistent ? { kind: 'consistent' } : { kind: 'any' });
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    cachedNamespace: (name) => {
      try {
        return namespaces.getNow('', name, { kind: 'any' });
      } catch {
        // Absent from the cache, or anything else: the reads above decide (and report errors).
        return undefined;
      }
    },
    createNamespace: (name) => namespaces.create('', emptyNamespace(name), { dryRun: false, subresource: '' }),
    warn: (message) => logger.warn(message),
  });
  if (chain.namespaces) registry.setNamespaceGate(chain.namespaces);
  if (chain.writes) registry.setWriteAdmission(chain.writes);
}

function emptyNamespace(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}
