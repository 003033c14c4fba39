/**
 * Upstream's 403 messages, which kubectl prints verbatim:
 *   configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "ns"
 *   forbidden: User "bob" cannot get path "/healthz"
 */
import { ApiError, qualifiedResource } from '../api/errors.js';
import type { AuthorizationAttributes } from './authorizer.js';

export function forbiddenError(attributes: AuthorizationAttributes, reason: string): ApiError {
  const message = sanitize(describe(attributes)) + (reason === '' ? '' : `: ${reason}`);
  if (!attributes.isResourceRequest || attributes.resource === '') {
    return new ApiError(403, 'Forbidden', `forbidden: ${message}`, {}, { 'X-Content-Type-Options': 'nosniff' });
  }
  const subject = qualifiedResource(attributes.resource, attributes.apiGroup);
  const prefix = attributes.name === '' ? `${subject} is forbidden` : `${subject} ${JSON.stringify(attributes.name)} is forbidden`;
  const details = {
    ...(attributes.name !== '' ? { name: attributes.name } : {}),
    ...(attributes.apiGroup !== '' ? { group: attributes.apiGroup } : {}),
    kind: attributes.resource,
  };
  return new ApiError(403, 'Forbidden', `${prefix}: ${message}`, details, { 'X-Content-Type-Options': 'nosniff' });
}

function describe(a: AuthorizationAttributes): string {
  const user = JSON.stringify(a.user.name);
  if (!a.isResourceRequest) return `User ${user} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  const resource = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  const where = a.namespace === '' ? 'at the cluster scope' : `in the namespace ${JSON.stringify(a.namespace)}`;
  return `User ${user} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.apiGroup)} ${where}`;
}

/** Upstream HTML-escapes the user-controlled parts of the message. */
function sanitize(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
