/**
 * kube-apiserver 1.35's admission plugins by name: which exist, in which order they run, which run
 * by default, and the checks and arithmetic of --enable-admission-plugins and
 * --disable-admission-plugins, in upstream's words. Which of them Capstan honours is
 * admission-chain.ts's business; every name here is accepted by the flags.
 */
import { goQuote } from '../serialization/go-format.js';

/** Every plugin, in the order upstream runs them (mutating before validating within this order). */
export const ADMISSION_PLUGIN_ORDER: readonly string[] = [
  'AlwaysAdmit', 'NamespaceAutoProvision', 'NamespaceLifecycle', 'NamespaceExists',
  'LimitPodHardAntiAffinityTopology', 'LimitRanger', 'ServiceAccount', 'NodeRestriction',
  'TaintNodesByCondition', 'AlwaysPullImages', 'ImagePolicyWebhook', 'PodSecurity', 'PodNodeSelector',
  'Priority', 'DefaultTolerationSeconds', 'PodTolerationRestriction', 'EventRateLimit',
  'ExtendedResourceToleration', 'DefaultStorageClass', 'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement', 'PersistentVolumeClaimResize', 'RuntimeClass',
  'CertificateApproval', 'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction',
  'DefaultIngressClass', 'DenyServiceExternalIPs', 'PodTopologyLabels',
  'MutatingAdmissionPolicy', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook', 'ResourceQuota', 'AlwaysDeny',
];

/** The plugins that run unless disabled. */
export const DEFAULT_ON_ADMISSION_PLUGINS: ReadonlySet<string> = new Set([
  'NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'PodSecurity', 'Priority',
  'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'PersistentVolumeClaimResize',
  'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction', 'DefaultIngressClass', 'PodTopologyLabels', 'MutatingAdmissionPolicy',
  'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota',
]);

/** The plugins whose enabling or disabling changes what Capstan does (admission-chain.ts). */
export const HONOURED_ADMISSION_PLUGINS: readonly string[] = ['AlwaysAdmit', 'NamespaceAutoProvision', 'NamespaceLifecycle', 'NamespaceExists', 'AlwaysDeny'];

const KNOWN: ReadonlySet<string> = new Set(ADMISSION_PLUGIN_ORDER);

/**
 * Upstream's checks of the two lists, in its order and words: each unknown name of either list,
 * then the names in both (sorted, as Go prints a list: `[A B]`). Empty: the lists are usable.
 */
export function validateAdmissionPluginLists(enable: readonly string[], disable: readonly string[]): string[] {
  const errors = [
    ...enable.filter((name) => !KNOWN.has(name)).map((name) => `enable-admission-plugins plugin ${goQuote(name)} is unknown`),
    ...disable.filter((name) => !KNOWN.has(name)).map((name) => `disable-admission-plugins plugin ${goQuote(name)} is unknown`),
  ];
  const disabled = new Set(disable);
  const both = [...new Set(enable)].filter((name) => disabled.has(name)).sort(compareGo);
  if (both.length > 0) errors.push(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  return errors;
}

/**
 * The plugins that run, in upstream's order: off are the default-off ones and the disabled ones,
 * less those enabled (so a name in both lists, which validation refuses, would run).
 */
export function enabledAdmissionPlugins(enable: readonly string[], disable: readonly string[]): string[] {
  const enabled = new Set(enable);
  const off = (name: string) => (!DEFAULT_ON_ADMISSION_PLUGINS.has(name) || disable.includes(name)) && !enabled.has(name);
  return ADMISSION_PLUGIN_ORDER.filter((name) => !off(name));
}

/** Go's string order: by bytes, which for these ASCII names is by UTF-16 code units. */
function compareGo(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
