/**
 * Several errors as one line, as Go's aggregate error (k8s.io/apimachinery utilerrors) prints them:
 * the message itself when there is one distinct message, else the distinct messages in brackets,
 * separated by ", ". Upstream reports option checks and policy validation this way.
 */
export function goAggregate(errors: readonly string[]): string[] {
  const distinct = [...new Set(errors)];
  return distinct.length <= 1 ? distinct : [`[${distinct.join(', ')}]`];
}
