/**
 * Upstream's naming of OpenAPI operations and tags: `listCoreV1NamespacedPod`,
 * `patchAppsV1NamespacedDeploymentScale`, tag `rbacAuthorization_v1`. Client generators and
 * humans key on these names, so they follow upstream's scheme.
 */

/** "rbac.authorization.k8s.io" → ["rbac", "authorization"]; "" → ["core"]. */
function groupWords(group: string): string[] {
  if (group === '') return ['core'];
  return group.replace(/\.k8s\.io$/, '').split('.');
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** "CoreV1", "AppsV1", "RbacAuthorizationV1", "FlowcontrolApiserverV1". */
export function groupVersionWord(group: string, version: string): string {
  return groupWords(group).map(capitalize).join('') + capitalize(version);
}

/** The tag of a group-version's operations: "core_v1", "apps_v1", "rbacAuthorization_v1". */
export function operationTag(group: string, version: string): string {
  const [first = '', ...rest] = groupWords(group);
  return `${first}${rest.map(capitalize).join('')}_${version}`;
}

/**
 * An operation id such as `listCoreV1NamespacedPod` or `connectCoreV1GetNamespacedPodExec`.
 * @param verb upstream's operation verb: list, read, create, replace, patch, delete, deletecollection,
 *   watch, watchlist, connect{Get,Post,...}
 * @param scope "Namespaced" for namespaced paths, "" otherwise, "ForAllNamespaces" for cross-namespace lists.
 */
export function operationId(verb: string, group: string, version: string, kind: string, scope: string, subresource = ''): string {
  const gv = groupVersionWord(group, version);
  const sub = subresource === '' ? '' : capitalize(subresource);
  if (verb === 'deletecollection') return `delete${gv}Collection${scope}${kind}`;
  if (verb === 'watchlist') return scope === 'ForAllNamespaces' ? `watch${gv}${kind}ListForAllNamespaces` : `watch${gv}${scope}${kind}List`;
  if (scope === 'ForAllNamespaces') return `${verb}${gv}${kind}ForAllNamespaces`;
  if (verb.startsWith('connect')) return `connect${gv}${verb.slice('connect'.length)}${scope}${kind}${sub}`;
  return `${verb}${gv}${scope}${kind}${sub}`;
}
