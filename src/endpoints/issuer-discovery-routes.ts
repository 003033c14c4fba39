/**
 * The service account issuer discovery endpoints: /.well-known/openid-configuration and
 * /openid/v1/jwks, as upstream serves them (JSON, the key set as application/jwk-set+json, both
 * cacheable by anyone for an hour). The documents are built on the first request, when the
 * server's address (the default key set URI) is known, and kept.
 */
import type { Handler, RequestContext } from '../server/request-context.js';
import { sendBody } from './respond.js';

const CACHE_CONTROL = 'public, max-age=3600';

export interface IssuerDocuments {
  readonly configuration: Record<string, unknown>;
  readonly keySet: Record<string, unknown>;
}

export function issuerDiscoveryHandlers(documents: () => IssuerDocuments): { configuration: Handler; keySet: Handler } {
  let built: { configuration: Buffer; keySet: Buffer } | undefined;
  const bodies = () => {
    if (built === undefined) {
      const d = documents();
      built = { configuration: Buffer.from(JSON.stringify(d.configuration)), keySet: Buffer.from(JSON.stringify(d.keySet)) };
    }
    return built;
  };
  const send = (ctx: RequestContext, contentType: string, body: Buffer): Promise<void> => {
    ctx.res.setHeader('Cache-Control', CACHE_CONTROL);
    return sendBody(ctx, 200, contentType, body);
  };
  return {
    configuration: (ctx) => send(ctx, 'application/json', bodies().configuration),
    keySet: (ctx) => send(ctx, 'application/jwk-set+json', bodies().keySet),
  };
}
