import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RequestInfoResolver, RequestInfoError, isLongRunning } from '../../src/server/request-info.js';

interface Case {
  name: string;
  method: string;
  url: string;
  want: {
    isResourceRequest?: boolean;
    verb: string;
    apiPrefix?: string;
    apiGroup?: string;
    apiVersion?: string;
    namespace?: string;
    resource?: string;
    name?: string;
    subresource?: string;
    parts?: string[];
  };
}

// Expectations follow upstream's requestinfo_test.go cases and behaviour.
const cases: Case[] = [
  { name: 'cluster list', method: 'GET', url: '/api/v1/namespaces', want: { verb: 'list', apiPrefix: 'api', apiVersion: 'v1', resource: 'namespaces', parts: ['namespaces'] } },
  { name: 'get namespace', method: 'GET', url: '/api/v1/namespaces/other', want: { verb: 'get', namespace: 'other', resource: 'namespaces', name: 'other', parts: ['namespaces', 'other'] } },
  { name: 'namespaced list', method: 'GET', url: '/api/v1/namespaces/other/pods', want: { verb: 'list', namespace: 'other', resource: 'pods', parts: ['pods'] } },
  { name: 'namespaced get', method: 'GET', url: '/api/v1/namespaces/other/pods/foo', want: { verb: 'get', namespace: 'other', resource: 'pods', name: 'foo', parts: ['pods', 'foo'] } },
  { name: 'HEAD is get', method: 'HEAD', url: '/api/v1/namespaces/other/pods/foo', want: { verb: 'get', namespace: 'other', resource: 'pods', name: 'foo' } },
  { name: 'all-namespaces list', method: 'GET', url: '/api/v1/pods', want: { verb: 'list', resource: 'pods', parts: ['pods'] } },
  { name: 'cluster-scoped get', method: 'GET', url: '/api/v1/nodes/n1', want: { verb: 'get', resource: 'nodes', name: 'n1' } },
  { name: 'group list', method: 'GET', url: '/apis/apps/v1/namespaces/ns/deployments', want: { verb: 'list', apiPrefix: 'apis', apiGroup: 'apps', apiVersion: 'v1', namespace: 'ns', resource: 'deployments' } },
  { name: 'group subresource', method: 'PUT', url: '/apis/apps/v1/namespaces/ns/deployments/d1/scale', want: { verb: 'update', apiGroup: 'apps', namespace: 'ns', resource: 'deployments', name: 'd1', subresource: 'scale', parts: ['deployments', 'd1', 'scale'] } },
  { name: 'create', method: 'POST', url: '/api/v1/namespaces/other/pods', want: { verb: 'create', namespace: 'other', resource: 'pods' } },
  { name: 'update', method: 'PUT', url: '/api/v1/namespaces/other/pods/foo', want: { verb: 'update', namespace: 'other', resource: 'pods', name: 'foo' } },
  { name: 'patch', method: 'PATCH', url: '/api/v1/namespaces/other/pods/foo', want: { verb: 'patch', namespace: 'other', resource: 'pods', name: 'foo' } },
  { name: 'delete', method: 'DELETE', url: '/api/v1/namespaces/other/pods/foo', want: { verb: 'delete', namespace: 'other', resource: 'pods', name: 'foo' } },
  { name: 'deletecollection', method: 'DELETE', url: '/api/v1/namespaces/other/pods', want: { verb: 'deletecollection', namespace: 'other', resource: 'pods' } },
  { name: 'unknown method has empty verb', method: 'OPTIONS', url: '/api/v1/namespaces/other/pods/foo', want: { verb: '', resource: 'pods', name: 'foo', namespace: 'other' } },
  { name: 'watch=true', method: 'GET', url: '/api/v1/namespaces/other/pods?watch=true', want: { verb: 'watch', namespace: 'other', resource: 'pods' } },
  { name: 'watch=1', method: 'GET', url: '/api/v1/pods?watch=1', want: { verb: 'watch', resource: 'pods' } },
  { name: 'watch= (empty) is true', method: 'GET', url: '/api/v1/pods?watch=', want: { verb: 'watch', resource: 'pods' } },
  { name: 'watch=false', method: 'GET', url: '/api/v1/pods?watch=false', want: { verb: 'list', resource: 'pods' } },
  { name: 'watch=0', method: 'GET', url: '/api/v1/pods?watch=0', want: { verb: 'list', resource: 'pods' } },
  { name: 'watch=FALSE', method: 'GET', url: '/api/v1/pods?watch=FALSE', want: { verb: 'list', resource: 'pods' } },
  { name: 'watch on a named get stays get', method: 'GET', url: '/api/v1/namespaces/ns/pods/p?watch=true', want: { verb: 'get', namespace: 'ns', resource: 'pods', name: 'p' } },
  { name: 'legacy watch prefix', method: 'GET', url: '/api/v1/watch/pods', want: { verb: 'watch', resource: 'pods', parts: ['pods'] } },
  { name: 'legacy watch namespaced', method: 'GET', url: '/api/v1/watch/namespaces/other/pods', want: { verb: 'watch', namespace: 'other', resource: 'pods' } },
  { name: 'legacy watch named', method: 'GET', url: '/api/v1/watch/namespaces/other/pods/foo', want: { verb: 'watch', namespace: 'other', resource: 'pods', name: 'foo' } },
  { name: 'legacy watch in group', method: 'GET', url: '/apis/apps/v1/watch/namespaces/ns/deployments', want: { verb: 'watch', apiGroup: 'apps', namespace: 'ns', resource: 'deployments' } },
  { name: 'proxy has no subresource', method: 'GET', url: '/api/v1/proxy/namespaces/ns/pods/p/some/path', want: { verb: 'proxy', namespace: 'ns', resource: 'pods', name: 'p', subresource: '' } },
  { name: 'pod log subresource', method: 'GET', url: '/api/v1/namespaces/ns/pods/p/log', want: { verb: 'get', namespace: 'ns', resource: 'pods', name: 'p', subresource: 'log' } },
  { name: 'namespace status', method: 'PUT', url: '/api/v1/namespaces/ns/status', want: { verb: 'update', namespace: 'ns', resource: 'namespaces', name: 'ns', subresource: 'status', parts: ['namespaces', 'ns', 'status'] } },
  { name: 'namespace finalize', method: 'PUT', url: '/api/v1/namespaces/ns/finalize', want: { verb: 'update', namespace: 'ns', resource: 'namespaces', name: 'ns', subresource: 'finalize' } },
  { name: 'trailing slash', method: 'GET', url: '/api/v1/namespaces/ns/pods/', want: { verb: 'list', namespace: 'ns', resource: 'pods' } },
  { name: 'fieldSelector names a list', method: 'GET', url: '/api/v1/namespaces/ns/pods?fieldSelector=metadata.name%3Dfoo', want: { verb: 'list', namespace: 'ns', resource: 'pods', name: 'foo' } },
  { name: 'fieldSelector == names a watch', method: 'GET', url: '/api/v1/pods?watch=1&fieldSelector=spec.nodeName%3Dn1,metadata.name%3D%3Dbar', want: { verb: 'watch', resource: 'pods', name: 'bar' } },
  { name: 'fieldSelector != names nothing', method: 'GET', url: '/api/v1/pods?fieldSelector=metadata.name!%3Dfoo', want: { verb: 'list', resource: 'pods', name: '' } },
  { name: 'deletecollection ignores fieldSelector', method: 'DELETE', url: '/api/v1/namespaces/ns/pods?fieldSelector=metadata.name%3Dfoo', want: { verb: 'deletecollection', namespace: 'ns', resource: 'pods' } },
];

const nonResource: Array<{ name: string; method: string; url: string; verb: string }> = [
  { name: 'root', method: 'GET', url: '/', verb: 'get' },
  { name: 'healthz', method: 'GET', url: '/healthz', verb: 'get' },
  { name: 'readyz check', method: 'GET', url: '/readyz/ping', verb: 'get' },
  { name: 'api', method: 'GET', url: '/api', verb: 'get' },
  { name: 'api version', method: 'GET', url: '/api/v1', verb: 'get' },
  { name: 'apis', method: 'GET', url: '/apis', verb: 'get' },
  { name: 'apis group', method: 'GET', url: '/apis/apps', verb: 'get' },
  { name: 'apis group version', method: 'GET', url: '/apis/apps/v1', verb: 'get' },
  { name: 'unknown prefix', method: 'POST', url: '/foo/bar/baz/qux', verb: 'post' },
  { name: 'openapi', method: 'GET', url: '/openapi/v3/apis/apps/v1', verb: 'get' },
];

function resolve(method: string, url: string) {
  const u = new URL(url, 'https://x');
  return new RequestInfoResolver().resolve(method, decodeURIComponent(u.pathname), u.searchParams);
}

describe('RequestInfoResolver', () => {
  for (const c of cases) {
    it(`resource request: ${c.name}`, () => {
      const info = resolve(c.method, c.url);
      const want = {
        isResourceRequest: true,
        apiPrefix: c.url.startsWith('/apis/') ? 'apis' : 'api',
        apiGroup: '',
        apiVersion: 'v1',
        namespace: '',
        resource: '',
        name: '',
        subresource: '',
        ...c.want,
      };
      const got = {
        isResourceRequest: info.isResourceRequest,
        verb: info.verb,
        apiPrefix: info.apiPrefix,
        apiGroup: info.apiGroup,
        apiVersion: info.apiVersion,
        namespace: info.namespace,
        resource: info.resource,
        name: info.name,
        subresource: info.subresource,
        ...(c.want.parts ? { parts: [...info.parts] } : {}),
      };
      assert.deepEqual(got, want);
    });
  }
  for (const c of nonResource) {
    it(`non-resource request: ${c.name}`, () => {
      const info = resolve(c.method, c.url);
      assert.equal(info.isResourceRequest, false);
      assert.equal(info.verb, c.verb);
      assert.equal(info.path, new URL(c.url, 'https://x').pathname);
      assert.equal(info.resource, '');
    });
  }
  it('rejects a special verb without a resource', () => {
    assert.throws(() => resolve('GET', '/api/v1/watch'), RequestInfoError);
  });
});

describe('isLongRunning', () => {
  const table: Array<[string, string, string, boolean]> = [
    ['watch', 'GET', '/api/v1/pods?watch=1', true],
    ['legacy watch', 'GET', '/api/v1/watch/pods', true],
    ['list', 'GET', '/api/v1/pods', false],
    ['log', 'GET', '/api/v1/namespaces/ns/pods/p/log', true],
    ['exec', 'POST', '/api/v1/namespaces/ns/pods/p/exec', true],
    ['status', 'PUT', '/api/v1/namespaces/ns/pods/p/status', false],
    ['non-resource', 'GET', '/healthz', false],
    ['a profile (it takes as long as it is asked to)', 'GET', '/debug/pprof/profile?seconds=90', true],
    ['the profiles\' index', 'GET', '/debug/pprof/', true],
    ['a path that only looks like the profiles', 'GET', '/debug/pprofile', false],
  ];
  for (const [name, method, url, want] of table) {
    it(name, () => assert.equal(isLongRunning(resolve(method, url)), want));
  }
});
