/**
 * The container a log, exec or attach request addresses, as upstream's validateContainer picks
 * it: the one named (any kind of container), else the pod's only container.
 */
import { badRequest } from '../../api/errors.js';
import { metaOf, type KubeObject } from '../../registry/object.js';
import { recordAt, recordsAt, stringAt } from '../../registry/strategies/json-access.js';

/** Upstream's VisitContainers order: init containers, containers, ephemeral containers. */
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'];

/** The container's name. Throws 400 when none is named and the pod has not exactly one, or when the name is unknown. */
export function containerOf(pod: KubeObject, requested: string): string {
  const spec = recordAt(pod, 'spec');
  const podName = metaOf(pod).name ?? '';
  const names = (list: string) => recordsAt(spec, list).map((c) => stringAt(c, 'name') ?? '');
  if (requested !== '') {
    if (!CONTAINER_LISTS.some((list) => names(list).includes(requested))) {
      throw badRequest(`container ${requested} is not valid for pod ${podName}`);
    }
    return requested;
  }
  const containers = names('containers');
  if (containers.length === 1) return containers[0]!;
  if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${podName}`);
  // Go prints the []string as [a b c].
  const all = CONTAINER_LISTS.flatMap(names);
  throw badRequest(`a container name must be specified for pod ${podName}, choose one of: [${all.join(' ')}]`);
}
