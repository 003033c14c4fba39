import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AuthorizationAttributes } from '../../../src/auth/authorizer.js';
import { ruleAllows } from '../../../src/auth/rbac/rule-matching.js';
import type { PolicyRule } from '../../../src/auth/rbac/rbac-types.js';

const request = (over: Partial<AuthorizationAttributes>): AuthorizationAttributes => ({
  user: { name: 'alice', groups: [] },
  verb: 'get',
  isResourceRequest: true,
  path: '/api/v1/namespaces/ns/pods/p',
  namespace: 'ns',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  name: 'p',
  ...over,
});

describe('ruleAllows', () => {
  const cases: Array<{ name: string; rule: PolicyRule; request: Partial<AuthorizationAttributes>; allows: boolean }> = [
    { name: 'exact verb, group and resource', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, request: {}, allows: true },
    { name: 'another verb', rule: { verbs: ['list'], apiGroups: [''], resources: ['pods'] }, request: {}, allows: false },
    { name: 'any verb', rule: { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, request: { verb: 'delete' }, allows: true },
    { name: 'another group', rule: { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }, request: {}, allows: false },
    { name: 'any group', rule: { verbs: ['get'], apiGroups: ['*'], resources: ['pods'] }, request: { apiGroup: 'apps' }, allows: true },
    { name: 'no groups at all', rule: { verbs: ['get'], resources: ['pods'] }, request: {}, allows: false },
    { name: 'any resource', rule: { verbs: ['get'], apiGroups: [''], resources: ['*'] }, request: { resource: 'secrets' }, allows: true },
    { name: 'the resource does not grant its subresource', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, request: { subresource: 'log' }, allows: false },
    { name: 'resource/subresource', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, request: { subresource: 'log' }, allows: true },
    { name: '*/subresource', rule: { verbs: ['get'], apiGroups: [''], resources: ['*/status'] }, request: { subresource: 'status' }, allows: true },
    { name: '*/subresource is not the resource', rule: { verbs: ['get'], apiGroups: [''], resources: ['*/status'] }, request: {}, allows: false },
    { name: '*/subresource of another subresource', rule: { verbs: ['get'], apiGroups: [''], resources: ['*/status'] }, request: { subresource: 'log' }, allows: false },
    { name: 'resourceNames narrow', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['q'] }, request: {}, allows: false },
    { name: 'resourceNames match', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['q', 'p'] }, request: {}, allows: true },
    { name: 'resourceNames and a list (no name)', rule: { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] }, request: { verb: 'list', name: '' }, allows: false },
    { name: 'empty resourceNames mean all', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }, request: {}, allows: true },
    { name: 'a URL rule for a resource', rule: { verbs: ['get'], nonResourceURLs: ['*'] }, request: {}, allows: false },
    { name: 'exact URL', rule: { verbs: ['get'], nonResourceURLs: ['/healthz'] }, request: { isResourceRequest: false, path: '/healthz' }, allows: true },
    { name: 'URL prefix', rule: { verbs: ['get'], nonResourceURLs: ['/healthz*'] }, request: { isResourceRequest: false, path: '/healthz/etcd' }, allows: true },
    { name: 'URL stars trimmed', rule: { verbs: ['get'], nonResourceURLs: ['/api/**'] }, request: { isResourceRequest: false, path: '/api/v1' }, allows: true },
    { name: 'any URL', rule: { verbs: ['get'], nonResourceURLs: ['*'] }, request: { isResourceRequest: false, path: '/metrics' }, allows: true },
    { name: 'another URL', rule: { verbs: ['get'], nonResourceURLs: ['/healthz'] }, request: { isResourceRequest: false, path: '/livez' }, allows: false },
    { name: 'a resource rule for a URL', rule: { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, request: { isResourceRequest: false, path: '/livez' }, allows: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(ruleAllows(request(c.request), c.rule), c.allows));
});
