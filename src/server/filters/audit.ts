/**
 * Audit: for each request the policy audits, an event at each stage goes to the audit sink:
 * RequestReceived when the request comes in, ResponseStarted when a long-running request (a watch)
 * sends its head, ResponseComplete when the handler is done. Runs after authentication, so that
 * the policy can look at the user. A request that fails authentication is audited by
 * {@link withFailedAuthenticationAudit}, outside authentication, with one ResponseStarted event.
 */
import { ApiError, internalError } from '../../api/errors.js';
import { nowMicros, formatMicroTime, type AuditEvent } from '../../audit/event.js';
import type { RequestAuditConfig } from '../../audit/policy-evaluator.js';
import type { Auditing } from '../../audit/build-auditing.js';
import type { AuditStage } from '../../audit/policy.js';
import { RequestAudit, requestEvent } from '../../audit/request-audit.js';
import type { AuditSink } from '../../audit/sink.js';
import type { UserInfo } from '../../auth/user-info.js';
import { isPromise, rejectingThrows } from '../../util/promises.js';
import type { Handler, RequestContext, Response } from '../request-context.js';
import { isLongRunning } from '../request-info.js';
import { attributesFor, attributesOf } from './authorization.js';

export interface AuditDeps {
  /** Absent: nothing is audited, and the filters are left out of the chain. */
  readonly auditing?: Auditing;
}

export function withAudit(handler: Handler, deps: AuditDeps): Handler {
  const { auditing } = deps;
  if (!auditing) return handler;
  const serveSafely = rejectingThrows(handler);
  const serve = (ctx: RequestContext, audit: RequestAudit, stages: StageEmitter, stored: boolean): Promise<void> => {
    if (!stored) return Promise.reject(internalError(new Error('failed to store audit event')));
    const longRunning = isLongRunning(ctx.info);
    if (longRunning) announceResponseStart(ctx.res, audit, stages);
    const finish = (err: unknown): boolean | Promise<boolean> => {
      // The error's Status is written after this filter returns (by panic recovery): record it now.
      if (err !== undefined) audit.responseObject(statusOf(err));
      if (longRunning && !stages.sent('ResponseStarted')) {
        // The head never went out (the client left first): upstream records a stand-in start.
        audit.event.responseStatus ??= { metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 };
        void stages.emit('ResponseStarted');
      }
      audit.statusCode(ctx.res.statusCode);
      return stages.emit('ResponseComplete');
    };
    return serveSafely(ctx).then(
      () => afterwards(finish(undefined)),
      (err: unknown) =>
        afterwards(finish(err)).then(() => {
          throw err;
        }),
    );
  };
  return (ctx) => {
    const config = auditing.policy.evaluate(attributesOf(ctx));
    if (config.level === 'None') return handler(ctx);
    const audit = new RequestAudit(requestEvent(ctx, config), config);
    ctx.audit = audit;
    const stages = new StageEmitter(auditing.sink, audit.event, config);
    const received = stages.emit('RequestReceived');
    return isPromise(received) ? received.then((stored) => serve(ctx, audit, stages, stored)) : serve(ctx, audit, stages, received);
  };
}

/** Waits for a sink that is still storing (a blocking webhook); the result does not matter after the request. */
function afterwards(stored: boolean | Promise<boolean>): Promise<void> {
  return isPromise(stored) ? stored.then(() => undefined) : Promise.resolve();
}

/**
 * Audits requests that fail authentication. Placed outside the authentication filter, it sees
 * their 401 go by with no user set.
 */
export function withFailedAuthenticationAudit(handler: Handler, deps: AuditDeps): Handler {
  const { auditing } = deps;
  if (!auditing) return handler;
  const record = (ctx: RequestContext): void => {
    const config = auditing.policy.evaluate(attributesFor(ctx.info, NO_USER));
    if (config.level === 'None') return;
    const event = requestEvent(ctx, config);
    event.responseStatus = { metadata: {}, message: authenticationAttempts(ctx), code: 401 };
    void new StageEmitter(auditing.sink, event, config).emit('ResponseStarted');
  };
  const serveSafely = rejectingThrows(handler);
  return (ctx) =>
    serveSafely(ctx).catch((err: unknown) => {
      if (ctx.user === undefined && err instanceof ApiError && err.code === 401) record(ctx);
      throw err;
    });
}

const NO_USER: UserInfo = { name: '', groups: [] };

/** Sends the event at each stage the policy does not omit, stamping the stage's time. */
class StageEmitter {
  private readonly done = new Set<AuditStage>();

  constructor(
    private readonly sink: AuditSink,
    private readonly event: AuditEvent,
    private readonly config: RequestAuditConfig,
  ) {}

  /** False when the sink could not store the event (blocking-strict only); a promise while a blocking webhook answers. */
  emit(stage: AuditStage): boolean | Promise<boolean> {
    this.done.add(stage);
    this.event.stage = stage;
    if (this.config.omitStages.includes(stage)) return true;
    this.event.stageTimestamp = stage === 'RequestReceived' ? this.event.requestReceivedTimestamp : formatMicroTime(nowMicros());
    return this.sink.processEvent(this.event);
  }

  sent(stage: AuditStage): boolean {
    return this.done.has(stage);
  }
}

/** Emits ResponseStarted when the response's head is written (every way of sending it calls writeHead). */
function announceResponseStart(res: Response, audit: RequestAudit, stages: StageEmitter): void {
  const target = res as unknown as { writeHead: (...args: unknown[]) => unknown };
  const writeHead = target.writeHead;
  target.writeHead = function (this: unknown, ...args: unknown[]) {
    if (!stages.sent('ResponseStarted')) {
      audit.statusCode(typeof args[0] === 'number' ? args[0] : res.statusCode);
      // The head cannot wait for a blocking webhook here; the event goes out all the same.
      void stages.emit('ResponseStarted');
    }
    return writeHead.apply(this, args);
  };
}

function statusOf(err: unknown): ReturnType<ApiError['toStatus']> {
  return (err instanceof ApiError ? err : internalError(err)).toStatus();
}

/** Which credentials the failed request carried, in upstream's words. */
function authenticationAttempts(ctx: RequestContext): string {
  const methods: string[] = [];
  const authorization = String(ctx.req.headers['authorization'] ?? '').trim();
  const [scheme, ...rest] = authorization.split(' ');
  if (scheme?.toLowerCase() === 'basic' && rest.length > 0) methods.push('basic');
  if (scheme?.toLowerCase() === 'bearer' && rest.length > 0) methods.push('bearer');
  if ((ctx.query.get('access_token') ?? '').trim() !== '') methods.push('access_token');
  if (hasPeerCertificate(ctx)) methods.push('x509');
  return methods.length > 0 ? `Authentication failed, attempted: ${methods.join(', ')}` : 'Authentication failed, no credentials provided';
}

function hasPeerCertificate(ctx: RequestContext): boolean {
  const socket = ctx.req.socket as { getPeerCertificate?: () => object } | undefined;
  if (typeof socket?.getPeerCertificate !== 'function') return false;
  return Object.keys(socket.getPeerCertificate()).length > 0;
}
