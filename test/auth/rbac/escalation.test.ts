import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compactRules, compactString, escalationError, FULL_AUTHORITY } from '../../../src/auth/rbac/escalation.js';

const alice = { name: 'alice', groups: ['devs', 'system:authenticated'] };
const podReader = [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }];

describe('compactString', () => {
  it('prints the set fields in upstream\'s order, with Go\'s quoting', () => {
    assert.equal(compactString({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }), '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}');
    assert.equal(compactString({ verbs: ['get'], nonResourceURLs: ['/healthz'] }), '{NonResourceURLs:["/healthz"], Verbs:["get"]}');
    assert.equal(compactString({ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['d'] }), '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["d"], Verbs:["get"]}');
  });
});

describe('compactRules', () => {
  it('merges the verbs of rules on one group and resource', () => {
    assert.deepEqual(
      compactRules([
        { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] },
        { verbs: ['get'], nonResourceURLs: ['/x'] },
      ]),
      [
        { verbs: ['get'], nonResourceURLs: ['/x'] },
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] },
      ],
    );
  });

  it('keeps rules with names apart by name', () => {
    const named = (name: string, verb: string) => ({ verbs: [verb], apiGroups: [''], resources: ['secrets'], resourceNames: [name] });
    assert.deepEqual(compactRules([named('a', 'get'), named('b', 'get'), named('a', 'update')]), [
      { verbs: ['get', 'update'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] },
      { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['b'] },
    ]);
  });
});

describe('escalationError', () => {
  it('passes what the user holds', () => {
    assert.equal(escalationError(alice, { rules: podReader, errors: [] }, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), undefined);
    assert.equal(escalationError(alice, { rules: FULL_AUTHORITY, errors: [] }, FULL_AUTHORITY), undefined);
  });

  it('lists what is missing, compacted and sorted, in upstream\'s words', () => {
    const wanted = [
      { verbs: ['get', 'delete', 'create'], apiGroups: [''], resources: ['pods', 'secrets'] },
      { verbs: ['get'], nonResourceURLs: ['/metrics'] },
    ];
    assert.equal(
      escalationError(alice, { rules: podReader, errors: [] }, wanted),
      'user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete" "create"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete" "create"]}\n' +
        '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
    );
  });

  it('adds the errors met resolving the user\'s own rules', () => {
    const message = escalationError(alice, { rules: [], errors: ['clusterrole.rbac.authorization.k8s.io "x" not found'] }, podReader);
    assert.match(message!, /; resolution errors: \[clusterrole\.rbac\.authorization\.k8s\.io "x" not found\]$/);
  });
});
