/**
 * Which strategy serves which resource type: the built-in types with rules of their own get their
 * strategy, everything else (other built-ins, custom resources) the GenericStrategy.
 */
import type { ResourceDefinition } from '../catalog/resource-definition.js';
import type { Strategy } from '../strategy.js';
import { HORIZONTAL_POD_AUTOSCALER_RULES, POD_DISRUPTION_BUDGET_RULES } from './autoscaling-rules.js';
import { PRIORITY_CLASS_RULES, STORAGE_CLASS_RULES } from './cluster-config-rules.js';
import { CertificateSigningRequestStrategy } from './certificate-signing-request-strategy.js';
import { ConfigMapStrategy } from './config-map-strategy.js';
import { CronJobStrategy } from './cron-job-strategy.js';
import { DaemonSetStrategy } from './daemon-set-strategy.js';
import { DeploymentStrategy } from './deployment-strategy.js';
import { ENDPOINT_SLICE_RULES, ENDPOINTS_RULES } from './endpoints-rules.js';
import { JobStrategy } from './job-strategy.js';
import { PersistentVolumeClaimStrategy } from './persistent-volume-claim-strategy.js';
import { PodTemplateStrategy } from './pod-template-strategy.js';
import { bindingRules, roleRules } from './rbac-rules.js';
import { ReplicaSetStrategy } from './replica-set-strategy.js';
import { ReplicationControllerStrategy } from './replication-controller-strategy.js';
import { RuleStrategy, type TypeRules } from './rule-strategy.js';
import { StatefulSetStrategy } from './stateful-set-strategy.js';
import { GenericStrategy, type GenericStrategyOptions } from './generic-strategy.js';
import type { NameValidator } from '../../validation/name-validators.js';
import { NamespaceStrategy } from './namespace-strategy.js';
import { INGRESS_RULES, NETWORK_POLICY_RULES } from './networking-rules.js';
import { PodStrategy } from './pod-strategy.js';
import { SecretStrategy } from './secret-strategy.js';
import { ServiceStrategy } from './service-strategy.js';
import type { NameValidators, StrategyDeps } from './strategy-deps.js';

type StrategyFactory = (definition: ResourceDefinition, options: GenericStrategyOptions, deps: StrategyDeps) => Strategy;

function rules(typeRules: TypeRules): StrategyFactory {
  return (d, o) => new RuleStrategy(d, o, typeRules);
}

/** Types with rules beyond the generic ones, keyed by `group/resource` ("" group for core). */
const FACTORIES: Readonly<Record<string, StrategyFactory>> = {
  '/namespaces': (d, o) => new NamespaceStrategy(d, o),
  '/configmaps': (d, o) => new ConfigMapStrategy(d, o),
  '/secrets': (d, o) => new SecretStrategy(d, o),
  '/pods': (d, o, deps) => new PodStrategy(d, o, deps.validateName, deps.pods, deps.containers),
  '/services': (d, o, deps) => new ServiceStrategy(d, o, deps.allocators),
  '/podtemplates': (d, o) => new PodTemplateStrategy(d, o),
  '/replicationcontrollers': (d, o, deps) => new ReplicationControllerStrategy(d, o, deps.validateName, deps.containers),
  '/persistentvolumeclaims': (d, o) => new PersistentVolumeClaimStrategy(d, o),
  'apps/deployments': (d, o, deps) => new DeploymentStrategy(d, o, deps.validateName, deps.containers),
  'apps/replicasets': (d, o, deps) => new ReplicaSetStrategy(d, o, deps.validateName, deps.containers),
  'apps/statefulsets': (d, o, deps) => new StatefulSetStrategy(d, o, deps.validateName, deps.containers),
  'apps/daemonsets': (d, o, deps) => new DaemonSetStrategy(d, o, deps.validateName, deps.containers),
  'batch/jobs': (d, o, deps) => new JobStrategy(d, o, deps.validateName, deps.containers),
  'batch/cronjobs': (d, o, deps) => new CronJobStrategy(d, o, deps.validateName, deps.containers),
  '/endpoints': rules(ENDPOINTS_RULES),
  'discovery.k8s.io/endpointslices': rules(ENDPOINT_SLICE_RULES),
  'networking.k8s.io/ingresses': rules(INGRESS_RULES),
  'networking.k8s.io/networkpolicies': rules(NETWORK_POLICY_RULES),
  'policy/poddisruptionbudgets': rules(POD_DISRUPTION_BUDGET_RULES),
  'autoscaling/horizontalpodautoscalers': rules(HORIZONTAL_POD_AUTOSCALER_RULES),
  'scheduling.k8s.io/priorityclasses': rules(PRIORITY_CLASS_RULES),
  'storage.k8s.io/storageclasses': rules(STORAGE_CLASS_RULES),
  'rbac.authorization.k8s.io/roles': rules(roleRules(false)),
  'rbac.authorization.k8s.io/clusterroles': rules(roleRules(true)),
  'rbac.authorization.k8s.io/rolebindings': rules(bindingRules(false)),
  'rbac.authorization.k8s.io/clusterrolebindings': rules(bindingRules(true)),
  'certificates.k8s.io/certificatesigningrequests': (d, o) => new CertificateSigningRequestStrategy(d, o),
};

type NameRule = keyof NameValidators;

/** Upstream's name rule per type where it is not the DNS-1123 subdomain. */
const NAME_RULES: Readonly<Record<string, NameRule>> = {
  '/namespaces': 'dns1123Label',
  '/services': 'dns1035Label',
  'rbac.authorization.k8s.io/roles': 'rbacName',
  'rbac.authorization.k8s.io/clusterroles': 'rbacName',
  'rbac.authorization.k8s.io/rolebindings': 'rbacName',
  'rbac.authorization.k8s.io/clusterrolebindings': 'rbacName',
  'certificates.k8s.io/certificatesigningrequests': 'unconstrained',
};

/** Types whose PUT creates an absent object (upstream's AllowCreateOnUpdate). */
const CREATE_ON_UPDATE = new Set([
  '/services',
  '/endpoints',
  '/events',
  '/limitranges',
  '/serviceaccounts',
  'events.k8s.io/events',
  'coordination.k8s.io/leases',
  'discovery.k8s.io/endpointslices',
  'rbac.authorization.k8s.io/roles',
  'rbac.authorization.k8s.io/clusterroles',
  'rbac.authorization.k8s.io/rolebindings',
  'rbac.authorization.k8s.io/clusterrolebindings',
]);

function typeKey(definition: ResourceDefinition): string {
  return `${definition.group}/${definition.resource}`;
}

/** The name validator upstream uses for `definition`'s type. */
export function nameValidatorFor(definition: ResourceDefinition, validators: NameValidators): NameValidator {
  return validators[NAME_RULES[typeKey(definition)] ?? 'dns1123Subdomain'];
}

/** The strategy of one resource type; a fresh instance per call. */
export function strategyFor(definition: ResourceDefinition, deps: StrategyDeps): Strategy {
  const key = typeKey(definition);
  // Read from the schema on the first request that asks, not when the store is made at startup
  // (before it is ready), which would parse every type's schema (see loadBuiltinSchemas).
  let fields: ReadonlySet<string> | undefined;
  const fieldsOf = () => (fields ??= deps.schemaFields(definition));
  const options: GenericStrategyOptions = {
    validateName: nameValidatorFor(definition, deps.validateName),
    get hasSpec() {
      return fieldsOf().has('spec');
    },
    get hasStatus() {
      return fieldsOf().has('status');
    },
    allowCreateOnUpdate: CREATE_ON_UPDATE.has(key),
  };
  const factory = FACTORIES[key];
  return factory ? factory(definition, options, deps) : new GenericStrategy(definition, options);
}
