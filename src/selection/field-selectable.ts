/**
 * The fields each resource type can be selected by, beyond metadata.name and metadata.namespace
 * (upstream's per-type GetAttrs / field label conversion functions). Keyed by `resource.group`
 * ("pods" for the core group). Values are read by dotted path from the object, with booleans and
 * numbers rendered as upstream renders them.
 */
const PER_TYPE: Readonly<Record<string, readonly string[]>> = {
  pods: [
    'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName',
    'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.podIPs', 'status.nominatedNodeName',
  ],
  events: [
    'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid',
    'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath',
    'reason', 'reportingComponent', 'source', 'type',
  ],
  'events.events.k8s.io': ['reason', 'regarding.kind', 'regarding.namespace', 'regarding.name', 'regarding.uid', 'type', 'reportingController'],
  secrets: ['type'],
  namespaces: ['status.phase'],
  nodes: ['spec.unschedulable'],
  replicationcontrollers: ['status.replicas'],
  'replicasets.apps': ['status.replicas'],
  'jobs.batch': ['status.successful'],
  'certificatesigningrequests.certificates.k8s.io': ['spec.signerName'],
  services: ['spec.clusterIP', 'spec.type'],
  persistentvolumeclaims: [],
};

/** The selectable fields of a resource type. */
export function selectableFields(resource: string, group: string, namespaced: boolean): ReadonlySet<string> {
  const key = group === '' ? resource : `${resource}.${group}`;
  const fields = new Set<string>(['metadata.name']);
  if (namespaced) fields.add('metadata.namespace');
  for (const f of PER_TYPE[key] ?? []) fields.add(f);
  return fields;
}

/** Reads a selectable field's value from an object, as a string. */
export function fieldValue(object: Record<string, unknown>, field: string): string | undefined {
  if (field === 'source') {
    const source = object['source'] as { component?: string } | undefined;
    return source?.component ?? '';
  }
  let value: unknown = object;
  for (const part of field.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' && v !== null ? String((v as { ip?: string }).ip ?? '') : String(v))).join(',');
  if (value === undefined || value === null) return field.startsWith('spec.hostNetwork') || field === 'spec.unschedulable' ? 'false' : undefined;
  return String(value);
}
