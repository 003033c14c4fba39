/**
 * Which discovery document an Accept header asks for, negotiated as upstream does: the most
 * preferred clause the server can serve decides.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregatedAsked } from '../../src/endpoints/discovery-routes.js';

const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

test('kubectl\'s header gets the v2 aggregated document; the spec\'s spelling is answered in kind', () => {
  assert.deepEqual(aggregatedAsked(`${V2},${V2BETA1},application/json`), { version: 'v2', group: 'apidiscovery.k8s.io' });
  assert.deepEqual(aggregatedAsked(`${V2BETA1},application/json`), { version: 'v2beta1', group: 'apidiscovery.k8s.io' });
  assert.deepEqual(aggregatedAsked('application/json;g=apidiscovery.cluster.io;v=v2;as=APIGroupDiscoveryList'), { version: 'v2', group: 'apidiscovery.cluster.io' });
});

test('the plain document for plain types, no header, or a plain type preferred', () => {
  for (const accept of [undefined, '', 'application/json', '*/*', 'application/yaml', `application/json,${V2}`, 'application/vnd.kubernetes.protobuf,' + V2]) {
    assert.equal(aggregatedAsked(accept), undefined, String(accept));
  }
});

test('quality values decide before order', () => {
  assert.deepEqual(aggregatedAsked(`application/json;q=0.9,${V2}`), { version: 'v2', group: 'apidiscovery.k8s.io' });
  assert.equal(aggregatedAsked(`${V2};q=0.5,application/json`), undefined);
  assert.equal(aggregatedAsked(`${V2};q=0,application/json`), undefined, 'q=0 refuses it');
});

test('clauses the server cannot serve are passed over', () => {
  const protobufAggregated = 'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
  assert.deepEqual(aggregatedAsked(`${protobufAggregated},${V2},application/json`), { version: 'v2', group: 'apidiscovery.k8s.io' });
  assert.deepEqual(aggregatedAsked(`text/html,application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList,${V2}`), { version: 'v2', group: 'apidiscovery.k8s.io' });
});
