/**
 * --admission-control-config-file, read as upstream's ReadAdmissionConfiguration
 * (k8s.io/apiserver/pkg/admission/config.go): the versions and spellings read, relative plugin
 * paths, legacy unversioned files, and upstream's words for files that cannot be read or decoded.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pluginConfiguration, readAdmissionConfiguration } from '../../src/admission/admission-config.js';

const SCHEME = 'k8s.io/apiserver/pkg/server/options/admission.go:50';

describe('readAdmissionConfiguration', () => {
  let dir: string;
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'capstan-admission-config-'));
  });

  it('reads no file as no configuration', () => {
    assert.deepEqual(readAdmissionConfiguration(['NamespaceLifecycle'], ''), { plugins: [] });
  });

  it('reads a v1 YAML file, its inline configuration kept and relative paths made absolute', () => {
    const path = file('v1.yaml', [
      'apiVersion: apiserver.config.k8s.io/v1',
      'kind: AdmissionConfiguration',
      'plugins:',
      '- name: EventRateLimit',
      '  path: eventconfig.yaml',
      '- name: PodNodeSelector',
      '  configuration:',
      '    podNodeSelectorPluginConfig: {clusterDefaultNodeSelector: "env=dev"}',
      '- name: ImagePolicyWebhook',
      '  path: /etc/ipw.yaml',
      '',
    ].join('\n'));
    const config = readAdmissionConfiguration([], path);
    assert.deepEqual(config.plugins, [
      { name: 'EventRateLimit', path: join(dir, 'eventconfig.yaml') },
      { name: 'PodNodeSelector', path: '', configuration: { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'env=dev' } } },
      { name: 'ImagePolicyWebhook', path: '/etc/ipw.yaml' },
    ]);
    assert.equal(pluginConfiguration(config, 'EventRateLimit')?.path, join(dir, 'eventconfig.yaml'));
    assert.equal(pluginConfiguration(config, 'NamespaceLifecycle'), undefined);
  });

  const versions = ['apiserver.config.k8s.io/v1alpha1', 'apiserver.cluster.io/v1', 'apiserver.cluster.io/v1alpha1'];
  for (const apiVersion of versions) {
    it(`reads ${apiVersion} in JSON`, () => {
      const path = file('config.json', JSON.stringify({ apiVersion, kind: 'AdmissionConfiguration', plugins: [{ name: 'ResourceQuota', configuration: { limitedResources: [] } }] }));
      assert.deepEqual(readAdmissionConfiguration([], path).plugins, [{ name: 'ResourceQuota', path: '', configuration: { limitedResources: [] } }]);
    });
  }

  it('reads a legacy ImagePolicyWebhook or PodNodeSelector file as theirs, when they are enabled', () => {
    const path = file('legacy.yaml', 'imagePolicy:\n  kubeConfigFile: /k\n');
    assert.deepEqual(readAdmissionConfiguration(['NamespaceLifecycle', 'ImagePolicyWebhook', 'PodNodeSelector'], path).plugins, [
      { name: 'ImagePolicyWebhook', path },
      { name: 'PodNodeSelector', path },
    ]);
    assert.deepEqual(readAdmissionConfiguration(['NamespaceLifecycle'], file('legacy2.yaml', 'podNodeSelectorPluginConfig: {}\n')).plugins, []);
  });

  const bad: Array<{ name: string; text?: string; path?: string; message: string | RegExp }> = [
    { name: 'a missing file', path: '/no/such/admission.yaml', message: 'unable to read admission control configuration from "/no/such/admission.yaml" [open /no/such/admission.yaml: no such file or directory]' },
    { name: 'a directory', path: '/', message: 'unable to read admission control configuration from "/" [read /: is a directory]' },
    { name: 'broken JSON', text: '{"apiVersion": ', message: "couldn't get version/kind; json parse error: unexpected end of JSON input" },
    { name: 'broken YAML', text: 'a: b\n c: d\n', message: /^error converting YAML to JSON: yaml: line \d+: / },
    { name: 'no kind', text: 'apiVersion: apiserver.config.k8s.io/v1\nplugins: []\n', message: "Object 'Kind' is missing in 'apiVersion: apiserver.config.k8s.io/v1\nplugins: []\n'" },
    { name: 'no apiVersion', text: 'kind: AdmissionConfiguration\n', message: "Object 'apiVersion' is missing in 'kind: AdmissionConfiguration\n'" },
    { name: 'an empty file', text: '', message: "Object 'Kind' is missing in ''" },
    { name: 'another kind', text: 'apiVersion: v1\nkind: Pod\n', message: `no kind "Pod" is registered for version "v1" in scheme "${SCHEME}"` },
    { name: 'an unknown version', text: 'apiVersion: apiserver.config.k8s.io/v2\nkind: AdmissionConfiguration\n', message: `no kind "AdmissionConfiguration" is registered for version "apiserver.config.k8s.io/v2" in scheme "${SCHEME}"` },
    { name: 'a list', text: '- a\n', message: `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }` },
    {
      name: 'plugins that are no list',
      text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins: x\n',
      message: 'json: cannot unmarshal string into Go struct field AdmissionConfiguration.plugins of type []v1.AdmissionPluginConfiguration',
    },
    {
      name: 'a name that is no string',
      text: 'apiVersion: apiserver.config.k8s.io/v1alpha1\nkind: AdmissionConfiguration\nplugins: [{name: 1}]\n',
      message: 'json: cannot unmarshal number into Go struct field AdmissionPluginConfiguration.plugins.name of type string',
    },
  ];
  for (const c of bad) {
    it(`refuses ${c.name} in upstream's words`, () => {
      const path = c.path ?? file('bad.yaml', c.text!);
      assert.throws(() => readAdmissionConfiguration(['ImagePolicyWebhook'], path), (err: Error) => (typeof c.message === 'string' ? err.message === c.message : c.message.test(err.message)) || assert.fail(err.message));
    });
  }
});
