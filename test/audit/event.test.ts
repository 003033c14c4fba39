/**
 * The audit event as written: MicroTime stamps, the JSON line's field order and left-out empty
 * fields, Go's escaping, and the legacy one-line text form.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventJson, formatMicroTime, type AuditEvent } from '../../src/audit/event.js';
import { legacyEventLine } from '../../src/audit/legacy-format.js';

function event(overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    level: 'Metadata',
    auditID: '5f0c3a5e-0000-4000-8000-000000000001',
    stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces/default/configmaps?fieldManager=kubectl-create',
    verb: 'create',
    user: { username: 'admin', groups: ['system:masters', 'system:authenticated'] },
    sourceIPs: ['127.0.0.1'],
    userAgent: 'kubectl/v1.33.0 (linux/amd64) kubernetes/abcdef',
    objectRef: { resource: 'configmaps', namespace: 'default', name: 'cm1', apiGroup: '', apiVersion: 'v1', subresource: '' },
    responseStatus: { metadata: {}, code: 201 },
    requestReceivedTimestamp: '2026-11-28T08:00:00.123456Z',
    stageTimestamp: '2026-11-28T08:00:00.125000Z',
    ...overrides,
  };
}

describe('formatMicroTime', () => {
  it('writes RFC 3339 in UTC with six fractional digits', () => {
    assert.equal(formatMicroTime(Date.UTC(2026, 10, 28, 8, 0, 0, 123) * 1000 + 456), '2026-11-28T08:00:00.123456Z');
    assert.equal(formatMicroTime(Date.UTC(2026, 0, 2, 3, 4, 5) * 1000), '2026-01-02T03:04:05.000000Z');
  });
});

describe('eventJson', () => {
  it('writes upstream\'s field order and leaves empty fields out', () => {
    const line = eventJson(event({ annotations: { 'z/b': '1', 'authorization.k8s.io/decision': 'allow' } }), 'audit.k8s.io/v1');
    assert.equal(
      line,
      '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"5f0c3a5e-0000-4000-8000-000000000001",' +
        '"stage":"ResponseComplete","requestURI":"/api/v1/namespaces/default/configmaps?fieldManager=kubectl-create","verb":"create",' +
        '"user":{"username":"admin","groups":["system:masters","system:authenticated"]},"sourceIPs":["127.0.0.1"],' +
        '"userAgent":"kubectl/v1.33.0 (linux/amd64) kubernetes/abcdef",' +
        '"objectRef":{"resource":"configmaps","namespace":"default","name":"cm1","apiVersion":"v1"},' +
        '"responseStatus":{"metadata":{},"code":201},' +
        '"requestReceivedTimestamp":"2026-11-28T08:00:00.123456Z","stageTimestamp":"2026-11-28T08:00:00.125000Z",' +
        '"annotations":{"authorization.k8s.io/decision":"allow","z/b":"1"}}',
    );
  });

  it('puts the objects between the status and the timestamps, and escapes as Go does', () => {
    const line = eventJson(event({ level: 'RequestResponse', requestObject: { data: { html: '<b>&</b>' } }, responseObject: { kind: 'ConfigMap' }, user: {} }), 'audit.cluster.io/v1');
    const parsed = JSON.parse(line) as Record<string, unknown>;
    assert.deepEqual(Object.keys(parsed).slice(11, 16), ['responseStatus', 'requestObject', 'responseObject', 'requestReceivedTimestamp', 'stageTimestamp']);
    assert.match(line, /"html":"\\u003cb\\u003e\\u0026\\u003c\/b\\u003e"/);
    assert.deepEqual(parsed['user'], {}, 'a request without a user still has the field');
  });
});

describe('legacyEventLine', () => {
  it('writes upstream\'s one-line form with Go-quoted values', () => {
    assert.equal(
      legacyEventLine(event()),
      '2026-11-28T08:00:00.123456Z AUDIT: id="5f0c3a5e-0000-4000-8000-000000000001" stage="ResponseComplete" ip="127.0.0.1" ' +
        'method="create" user="admin" groups="\\"system:masters\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" ' +
        'user-agent="kubectl/v1.33.0 (linux/amd64) kubernetes/abcdef" namespace="default" ' +
        'uri="/api/v1/namespaces/default/configmaps?fieldManager=kubectl-create" response="201"',
    );
  });

  it('marks what the event lacks, and trims the time\'s trailing zeros', () => {
    const line = legacyEventLine(event({ user: {}, sourceIPs: [], objectRef: undefined, responseStatus: undefined, requestReceivedTimestamp: '2026-11-28T08:00:00.120000Z' }));
    assert.match(line, /^2026-11-28T08:00:00\.12Z AUDIT: /);
    assert.match(line, / ip="<unknown>" /);
    assert.match(line, / user="<none>" groups="<none>" /);
    assert.match(line, / namespace="<none>" /);
    assert.match(line, / response="<deferred>"$/);
    assert.match(legacyEventLine(event({ requestReceivedTimestamp: '2026-11-28T08:00:00.000000Z' })), /^2026-11-28T08:00:00Z AUDIT/);
  });
});
