/**
 * The scale subresource (autoscaling/v1 Scale) of deployments, replicasets, statefulsets and
 * replicationcontrollers: a view of the parent's spec.replicas and status, read and written
 * through the parent object, so `kubectl scale` and autoscalers work.
 */
import { badRequest } from '../../api/errors.js';
import { applyPatch } from '../../patch/patchers.js';
import { metaOf, type KubeObject } from '../../registry/object.js';
import type { RequestContext } from '../../server/request-context.js';
import { requestCodec } from '../../serialization/content-type.js';
import { BUILT_IN_PATCH_KINDS, patchKindOf } from '../../serialization/patch-content-type.js';
import { getReadRevision } from '../read-options.js';
import { fieldManagerOf, fieldValidationOf, isDryRun, writeOptionsKind } from '../query-flags.js';
import { contentTypeOf, readBody } from '../request-body.js';
import { negotiate, writeValue } from '../respond.js';
import type { RequestScope } from '../scope.js';
import type { StructuredLabelSelector } from '../../selection/label-selector.js';
import { labelSelectorText } from '../table/cell-format.js';

const SCALE_SCHEMA = 'io.k8s.api.autoscaling.v1.Scale';

/**
 * Upstream's string form of the parent's selector, as the Table printers show selectors:
 * structured for most types, a plain label map for ReplicationControllers (labels.SelectorFromSet
 * prints it by the same rule). An invalid selector has no string form: "".
 */
function selectorString(selector: StructuredLabelSelector | Record<string, string> | undefined): string {
  if (!selector) return '';
  const structured = 'matchLabels' in selector || 'matchExpressions' in selector;
  return labelSelectorText(structured ? selector : { matchLabels: selector }) ?? '';
}

/** The Scale view of a parent object. */
export function scaleOf(parent: KubeObject): KubeObject {
  const meta = metaOf(parent);
  const spec = (parent['spec'] ?? {}) as { replicas?: number; selector?: StructuredLabelSelector | Record<string, string> };
  const status = (parent['status'] ?? {}) as { replicas?: number };
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion, creationTimestamp: meta.creationTimestamp },
    spec: { replicas: spec.replicas ?? 0 },
    status: { replicas: status.replicas ?? 0, selector: selectorString(spec.selector) },
  };
}

function replicasOf(scale: unknown): number {
  const replicas = (scale as { spec?: { replicas?: unknown } } | null)?.spec?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw badRequest(`Scale.autoscaling "" is invalid: spec.replicas: Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`);
  }
  return replicas;
}

export async function handleScale(ctx: RequestContext, scope: RequestScope): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs, { table: false, partialObjectMetadata: false });
  const verb = ctx.info.verb;
  if (verb === 'get') {
    const parent = await scope.store.get(scope.namespace, scope.name, getReadRevision(ctx.query), ctx.signal);
    return writeValue(ctx, 200, scaleOf(parent), out);
  }
  const dryRun = isDryRun(ctx.query, writeOptionsKind(verb));
  const manager = fieldManagerOf(ctx.query, ctx.req.headers['user-agent'], writeOptionsKind(verb));
  const body = await readBody(ctx);
  const isPatch = verb === 'patch';
  const patchKind = isPatch ? patchKindOf(contentTypeOf(ctx), BUILT_IN_PATCH_KINDS) : undefined;
  const appliers = await scope.env.patchersFor(SCALE_SCHEMA);
  const written = isPatch ? undefined : requestCodec(contentTypeOf(ctx), scope.env.codecs).decode(body).value;
  const result = await scope.store.update(
    scope.namespace,
    scope.name,
    (current) => {
      const currentScale = scaleOf(current);
      const desired = patchKind
        ? applyPatch(patchKind, { current: currentScale, body, fieldValidation: fieldValidationOf(ctx.query, 'PatchOptions') }, appliers).value
        : written;
      // A Scale naming a resourceVersion is a precondition on the parent; the store checks it.
      const asked = (desired as { metadata?: { resourceVersion?: string } } | null)?.metadata?.resourceVersion;
      if (asked) metaOf(current).resourceVersion = asked;
      ((current['spec'] ??= {}) as { replicas?: number }).replicas = replicasOf(desired);
      return current;
    },
    { dryRun, subresource: '', manager, managerSubresource: 'scale' },
  );
  await writeValue(ctx, 200, scaleOf(result.object), out);
}
