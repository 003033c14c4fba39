/**
 * What the type-specific strategies need from the rest of the server, injected so each strategy can
 * be tested alone.
 */
import type { ResourceDefinition } from '../catalog/resource-definition.js';
import type { Allocator } from '../allocators/allocator.js';
import { nameIsDns1035Label, nameIsDnsLabel, nameIsDnsSubdomain, nameIsRbacName, nameIsUnconstrained, type NameValidator } from '../../validation/name-validators.js';

/** Upstream's name rules; each returns error messages in upstream's words, empty when valid. */
export interface NameValidators {
  /** DNS-1123 subdomain (most types). */
  readonly dns1123Subdomain: NameValidator;
  /** DNS-1123 label (Namespaces). */
  readonly dns1123Label: NameValidator;
  /** DNS-1035 label (Services). */
  readonly dns1035Label: NameValidator;
  /** Path segment: anything but "." and ".." and without "/" or "%", prefixes too (RBAC roles and bindings). */
  readonly rbacName: NameValidator;
  /** No rule (CertificateSigningRequests). */
  readonly unconstrained: NameValidator;
}

/** The server's validators (src/validation). */
export const BUILTIN_NAME_VALIDATORS: NameValidators = {
  dns1123Subdomain: nameIsDnsSubdomain,
  dns1123Label: nameIsDnsLabel,
  dns1035Label: nameIsDns1035Label,
  rbacName: nameIsRbacName,
  unconstrained: nameIsUnconstrained,
};

/** The allocators behind Services; absent ones mean the server does not allocate that kind. */
export interface ServiceAllocators {
  /** Cluster IPs from --service-cluster-ip-range. */
  readonly clusterIps?: Allocator<string>;
  /** Node ports from --service-node-port-range. */
  readonly nodePorts?: Allocator<number>;
}

/** Defaults of pods that come from server options (DefaultTolerationSeconds admission). */
export interface PodOptions {
  /** --default-not-ready-toleration-seconds (300). */
  readonly notReadyTolerationSeconds: number;
  /** --default-unreachable-toleration-seconds (300). */
  readonly unreachableTolerationSeconds: number;
  /**
   * Whether a service account exists; true/false when known, undefined when the server cannot tell
   * (then the service-account token volume is not added). Upstream's ServiceAccount admission.
   */
  readonly serviceAccountExists?: (namespace: string, name: string) => boolean | undefined;
  /** Random source for generated suffixes (tests inject a fixed one). */
  readonly random?: () => number;
}

/** What the cluster lets containers do, for every pod spec (pods and pod templates alike). */
export interface ContainerPolicy {
  /** --allow-privileged. */
  readonly allowPrivileged: boolean;
}

/** Upstream's defaults. */
export const DEFAULT_CONTAINER_POLICY: ContainerPolicy = { allowPrivileged: false };

export interface StrategyDeps {
  readonly validateName: NameValidators;
  /** Top-level property names of the kind's schema (decides hasSpec / hasStatus). */
  readonly schemaFields: (definition: ResourceDefinition) => ReadonlySet<string>;
  readonly allocators: ServiceAllocators;
  /** Defaults to 300 s for both tolerations and no service-account volume. */
  readonly pods?: PodOptions;
  /** Defaults to DEFAULT_CONTAINER_POLICY. */
  readonly containers?: ContainerPolicy;
}

export const DEFAULT_POD_OPTIONS: PodOptions = {
  notReadyTolerationSeconds: 300,
  unreachableTolerationSeconds: 300,
};
