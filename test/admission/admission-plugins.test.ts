/**
 * The plugin lists of --enable-admission-plugins and --disable-admission-plugins: upstream's checks
 * (k8s.io/apiserver/pkg/server/options/admission.go, Validate) and the enabled set
 * (enabledPluginNames), over kube-apiserver 1.35's plugins (pkg/kubeapiserver/options/plugins.go).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMISSION_PLUGIN_ORDER, DEFAULT_ON_ADMISSION_PLUGINS, enabledAdmissionPlugins, validateAdmissionPluginLists } from '../../src/admission/admission-plugins.js';

const DEFAULTS = [
  'NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'PodSecurity', 'Priority',
  'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'PersistentVolumeClaimResize',
  'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction',
  'DefaultIngressClass', 'PodTopologyLabels', 'MutatingAdmissionPolicy', 'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota',
];

describe('validateAdmissionPluginLists', () => {
  const table: Array<{ name: string; enable: string[]; disable: string[]; errors: string[] }> = [
    { name: 'known names', enable: ['AlwaysDeny', 'NamespaceExists'], disable: ['NamespaceLifecycle'], errors: [] },
    { name: 'empty lists', enable: [], disable: [], errors: [] },
    { name: 'an unknown enabled name', enable: ['Foo'], disable: [], errors: ['enable-admission-plugins plugin "Foo" is unknown'] },
    { name: 'an unknown disabled name', enable: [], disable: ['Foo'], errors: ['disable-admission-plugins plugin "Foo" is unknown'] },
    { name: 'names are case-sensitive and kept as given', enable: ['namespacelifecycle', ' AlwaysDeny'], disable: [], errors: ['enable-admission-plugins plugin "namespacelifecycle" is unknown', 'enable-admission-plugins plugin " AlwaysDeny" is unknown'] },
    { name: 'an empty name', enable: [''], disable: [], errors: ['enable-admission-plugins plugin "" is unknown'] },
    {
      name: 'overlaps, sorted, after the unknown names',
      enable: ['NamespaceLifecycle', 'Foo', 'AlwaysDeny'],
      disable: ['AlwaysDeny', 'Bar', 'NamespaceLifecycle', 'Foo'],
      errors: [
        'enable-admission-plugins plugin "Foo" is unknown',
        'disable-admission-plugins plugin "Bar" is unknown',
        'disable-admission-plugins plugin "Foo" is unknown',
        '[AlwaysDeny Foo NamespaceLifecycle] in enable-admission-plugins and disable-admission-plugins overlapped',
      ],
    },
  ];
  for (const c of table) {
    it(c.name, () => assert.deepEqual(validateAdmissionPluginLists(c.enable, c.disable), c.errors));
  }
});

describe('enabledAdmissionPlugins', () => {
  it('knows kube-apiserver 1.35\'s 36 plugins and its default set', () => {
    assert.equal(ADMISSION_PLUGIN_ORDER.length, 36);
    assert.deepEqual([...DEFAULT_ON_ADMISSION_PLUGINS].sort(), [...DEFAULTS].sort());
  });

  const table: Array<{ name: string; enable: string[]; disable: string[]; expected: string[] }> = [
    { name: 'the defaults, in upstream\'s order', enable: [], disable: [], expected: ADMISSION_PLUGIN_ORDER.filter((n) => DEFAULTS.includes(n)) },
    { name: 'enabled ones join in their place', enable: ['AlwaysDeny', 'NamespaceAutoProvision'], disable: [], expected: ['NamespaceAutoProvision', ...ADMISSION_PLUGIN_ORDER.filter((n) => DEFAULTS.includes(n)), 'AlwaysDeny'] },
    { name: 'disabled ones leave', enable: [], disable: ['NamespaceLifecycle', 'ResourceQuota'], expected: ADMISSION_PLUGIN_ORDER.filter((n) => DEFAULTS.includes(n) && n !== 'NamespaceLifecycle' && n !== 'ResourceQuota') },
    { name: 'enabling a default one changes nothing', enable: ['NamespaceLifecycle'], disable: [], expected: ADMISSION_PLUGIN_ORDER.filter((n) => DEFAULTS.includes(n)) },
    { name: 'disabling a default-off one changes nothing', enable: [], disable: ['AlwaysDeny'], expected: ADMISSION_PLUGIN_ORDER.filter((n) => DEFAULTS.includes(n)) },
    { name: 'a name in both lists runs, as upstream computes it', enable: ['NamespaceLifecycle'], disable: ['NamespaceLifecycle'], expected: ADMISSION_PLUGIN_ORDER.filter((n) => DEFAULTS.includes(n)) },
    { name: 'unknown names are no plugins', enable: ['Foo'], disable: [], expected: ADMISSION_PLUGIN_ORDER.filter((n) => DEFAULTS.includes(n)) },
  ];
  for (const c of table) {
    it(c.name, () => assert.deepEqual(enabledAdmissionPlugins(c.enable, c.disable), c.expected));
  }

  it('puts the namespace plugins first and AlwaysDeny last', () => {
    assert.deepEqual(ADMISSION_PLUGIN_ORDER.slice(0, 4), ['AlwaysAdmit', 'NamespaceAutoProvision', 'NamespaceLifecycle', 'NamespaceExists']);
    assert.equal(ADMISSION_PLUGIN_ORDER.at(-1), 'AlwaysDeny');
  });
});
