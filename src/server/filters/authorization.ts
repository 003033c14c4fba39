/** Asks the authorizer whether `ctx.user` may do what the request asks; 403 Forbidden otherwise. */
import { internalError } from '../../api/errors.js';
import { forbiddenError } from '../../auth/forbidden-message.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../../auth/authorizer.js';
import { isPromise, rejectingThrows } from '../../util/promises.js';
import type { Logger } from '../logger.js';
import type { UserInfo } from '../../auth/user-info.js';
import type { Handler, RequestContext, RequestInfo } from '../request-context.js';
import { goQuote } from '../../serialization/go-format.js';
import { writeText } from '../write-response.js';

export interface AuthorizationDeps {
  readonly authorizer: Authorizer;
  readonly logger: Logger;
}

export function withAuthorization(handler: Handler, deps: AuthorizationDeps): Handler {
  const proceed = (ctx: RequestContext, attributes: AuthorizationAttributes, result: AuthorizationResult): Promise<void> => {
    if (result.decision !== 'allow' && result.error !== undefined) return failInternally(ctx, result.error, deps.logger);
    if (ctx.audit) {
      // Upstream's annotation keys, in the group name clients know (authorization.k8s.io).
      ctx.audit.annotate('authorization.k8s.io/decision', result.decision === 'allow' ? 'allow' : 'forbid');
      ctx.audit.annotate('authorization.k8s.io/reason', result.reason);
    }
    if (result.decision !== 'allow') {
      deps.logger.info(`Forbidden: ${ctx.info.path}, Reason: ${JSON.stringify(result.reason)}`, 4);
      throw forbiddenError(attributes, result.reason);
    }
    return handler(ctx);
  };
  return rejectingThrows((ctx) => {
    if (!ctx.user) throw internalError(new Error('no user found for request'));
    const attributes = attributesOf(ctx);
    const result = deps.authorizer.authorize(attributes);
    return isPromise(result) ? result.then((r) => proceed(ctx, attributes, r)) : proceed(ctx, attributes, result);
  });
}

/**
 * An authorizer that could not decide (and nothing allowed the request): upstream answers with
 * Go's plain-text http.Error, its text HTML-escaped, rather than a Status.
 */
function failInternally(ctx: RequestContext, error: string, logger: Logger): Promise<void> {
  logger.error(`authorization failed for ${ctx.info.path}: ${error}`);
  ctx.audit?.annotate('authorization.k8s.io/reason', 'internal error');
  const text = `Internal Server Error: ${goQuote(ctx.req.url ?? '')}: ${error}`;
  writeText(ctx, 500, `${escapeHtml(text)}\n`, { 'X-Content-Type-Options': 'nosniff' });
  return Promise.resolve();
}

/** Go's html.EscapeString, as upstream's error writer applies it. */
function escapeHtml(text: string): string {
  const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
  return text.replace(/[&<>"']/g, (c) => entities[c]!);
}

/** The authorizer's view of a request. */
export function attributesOf(ctx: RequestContext): AuthorizationAttributes {
  return attributesFor(ctx.info, ctx.user!);
}

/** The authorizer's view of a request made by `user`. */
export function attributesFor(info: RequestInfo, user: UserInfo): AuthorizationAttributes {
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    namespace: info.namespace,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
}
