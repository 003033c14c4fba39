import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readGeneratedDescriptor } from '../../../src/serialization/protobuf/descriptor.js';
import { ProtobufSchema } from '../../../src/serialization/protobuf/schema.js';

describe('ProtobufSchema', () => {
  it('reads the descriptor on first use, once', () => {
    let reads = 0;
    const schema = new ProtobufSchema(() => {
      reads++;
      return readGeneratedDescriptor();
    });
    assert.equal(reads, 0);
    assert.ok(schema.messageForKind('v1', 'ConfigMap'));
    assert.ok(schema.messageForKind('apps/v1', 'Deployment'));
    assert.equal(reads, 1);
  });

  const kinds: [apiVersion: string, kind: string, message: string | undefined][] = [
    ['v1', 'ConfigMap', 'k8s.io.api.core.v1.ConfigMap'],
    ['v1', 'ConfigMapList', 'k8s.io.api.core.v1.ConfigMapList'],
    ['apps/v1', 'Deployment', 'k8s.io.api.apps.v1.Deployment'],
    ['rbac.authorization.k8s.io/v1', 'ClusterRole', 'k8s.io.api.rbac.v1.ClusterRole'],
    ['authentication.k8s.io/v1', 'SelfSubjectReview', 'k8s.io.api.authentication.v1.SelfSubjectReview'],
    ['authentication.k8s.io/v1', 'TokenRequest', 'k8s.io.api.authentication.v1.TokenRequest'],
    ['authorization.k8s.io/v1', 'SelfSubjectAccessReview', 'k8s.io.api.authorization.v1.SelfSubjectAccessReview'],
    ['internal.apiserver.k8s.io/v1alpha1', 'StorageVersion', 'k8s.io.api.apiserverinternal.v1alpha1.StorageVersion'],
    ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition'],
    ['v1', 'Status', 'k8s.io.apimachinery.pkg.apis.meta.v1.Status'],
    ['batch/v1', 'DeleteOptions', 'k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions'],
    ['apps/v1', 'WatchEvent', 'k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent'],
    ['meta.k8s.io/v1', 'PartialObjectMetadataList', 'k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList'],
    ['meta.k8s.io/v1beta1', 'PartialObjectMetadataList', 'k8s.io.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList'],
    ['v1', 'PodSpec', undefined],
    ['apps/v1', 'ConfigMap', undefined],
    ['extensions/v1beta1', 'Deployment', undefined],
    ['example.com/v1', 'Widget', undefined],
    ['v1', 'constructor', undefined],
    ['meta.k8s.io/v1', 'Table', undefined],
  ];
  const schema = new ProtobufSchema();
  for (const [apiVersion, kind, message] of kinds) {
    it(`${apiVersion} ${kind} -> ${message ?? 'none'}`, () => {
      assert.equal(schema.messageForKind(apiVersion, kind)?.name, message);
    });
  }
});
