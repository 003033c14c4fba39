/**
 * Turns any failure inside the chain into a response: an ApiError as its Status, anything else
 * as a logged 500 InternalError. The process never goes down because of one request.
 */
import { writeError } from '../write-response.js';
import type { Logger } from '../logger.js';
import type { Handler } from '../request-context.js';

export function withPanicRecovery(handler: Handler, deps: { readonly logger: Logger }): Handler {
  return async (ctx) => {
    try {
      await handler(ctx);
    } catch (err) {
      writeError(ctx, err, { logger: deps.logger });
    }
  };
}
