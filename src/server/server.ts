/**
 * The API server as an object: built from {@link ServerOptions} and injected dependencies,
 * started and stopped in-process (tests, embedders) or by the CLI.
 *
 * Extension points for other components:
 * - `server.routes.add(path, handler)` / `addPrefix(prefix, handler)`: non-resource paths
 *   (discovery at /api and /apis, /openapi/v2 and /openapi/v3/...);
 * - `server.setResourceHandler(handler)` or `deps.resourceHandler`: every resource request;
 * - `server.health.add(check, endpoints)`: health checks;
 * - `server.addPostStartHook(name, hook)`: work after the server listens, gating /readyz;
 * - `deps.storage`: the store, whose health becomes the `etcd` and `etcd-readiness` checks.
 */
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { anonymousAccess } from '../auth/anonymous-access.js';
import { BearerTokenAuthenticator, type AudienceBoundUser, type TokenAuthenticator } from '../auth/bearer-token-authenticator.js';
import { X509Authenticator } from '../auth/x509-authenticator.js';
import { RequestHeaderAuthenticator } from '../auth/request-header-authenticator.js';
import { fingerprintsOf } from '../auth/peer-chain.js';
import type { Authenticator } from '../auth/authenticator.js';
import { withAuthenticatedGroup } from '../auth/authenticator.js';
import { readTokenFile } from '../auth/token-file.js';
import { buildAuditing, type Auditing } from '../audit/build-auditing.js';
import { buildAuthorizer, type Authorizer } from '../auth/authorizer.js';
import { installDebugFlags } from '../debug/debug-flags.js';
import { DebugSocket } from '../debug/debug-socket.js';
import { installProfiling } from '../debug/pprof-routes.js';
import { Profilers } from '../debug/profilers.js';
import { conditionCheck, logCheck, pingCheck, shutdownCheck, storeCheck } from '../health/checks.js';
import { HealthChecks } from '../health/health-checks.js';
import { rootHealthHandler, singleHealthHandler } from '../health/health-handler.js';
import { firstAddress, parseCidr } from './cidr.js';
import { buildHandlerChain } from './handler-chain.js';
import { HttpsListener } from './https-listener.js';
import { batchWritten } from './end-batch.js';
import { InFlightRequests } from './in-flight.js';
import { ConsoleLogger, type Logger } from './logger.js';
import { PostStartHooks, type PostStartHook } from './post-start-hooks.js';
import { RequestInfoResolver } from './request-info.js';
import { Router, type RouteTable } from './router.js';
import { writeKubeconfig } from './tls/admin-kubeconfig.js';
import { ADMIN_USER, bootstrapTls, type TlsMaterial } from './tls/bootstrap.js';
import { opensslCipherList, TLS_VERSIONS } from './tls/go-tls-names.js';
import { warmUpOpenSsl } from './tls/openssl-warm-up.js';
import { versionHandler, versionInfo, type VersionInfo } from './version.js';
import { apiAudiencesOf, type ServerOptions } from '../cli/options.js';
import type { Storage } from '../storage/storage.js';
import type { Handler } from './request-context.js';
import { setLongTimeout, type LongTimeout } from '../util/long-timeout.js';

/** How long after readiness heap sampling begins (see {@link Server.startHeapSamplingSoon}). */
const HEAP_SAMPLING_DELAY_MS = 1000;

export interface ServerDeps {
  readonly options: ServerOptions;
  /** Default: klog-style lines on stderr at `options.verbosity`. */
  readonly logger?: Logger;
  /** The store. Without one the server runs (health, version, discovery) but has no `etcd` checks. */
  readonly storage?: Pick<Storage, 'checkHealth'>;
  /** Serves every resource request; default: 404 until {@link Server.setResourceHandler}. */
  readonly resourceHandler?: Handler;
  /** Bearer token authenticators besides --token-auth-file's (tests add their own). */
  readonly tokenAuthenticators?: readonly TokenAuthenticator[];
  /** Decides every request (and is the one the app's access reviews ask); default: built from --authorization-mode. */
  readonly authorizer?: Authorizer;
  /** Whether the in-process informers have synced (the `informer-sync` readyz check); default: yes. */
  readonly informersSynced?: () => boolean;
}

/** Where a started server can be reached. */
export interface ServingInfo {
  /** `https://host:port` with an address clients on this machine can reach. */
  readonly url: string;
  readonly port: number;
  /** The admin kubeconfig written at start: `<data-dir>/admin.kubeconfig`. */
  readonly kubeconfigPath: string;
  readonly tls: TlsMaterial;
}

export class Server {
  readonly options: ServerOptions;
  readonly logger: Logger;
  readonly health: HealthChecks;
  readonly version: VersionInfo;
  private readonly router = new Router();
  private readonly inFlight = new InFlightRequests();
  private readonly hooks: PostStartHooks;
  private readonly lifetime = new AbortController();
  private listener: HttpsListener | undefined;
  private debugSocket: DebugSocket | undefined;
  /** Shared by /debug/pprof/ and the debug socket; nothing of them loads before it is used. */
  private readonly profilers = new Profilers();
  private tls: Promise<TlsMaterial> | undefined;
  /** Injected ones, then --token-auth-file's once start() has read it. */
  private tokenAuthenticators: readonly TokenAuthenticator[];
  private servingInfo: ServingInfo | undefined;
  private shuttingDown = false;
  /** What is audited and where events go; set by start() when auditing is on. */
  private auditing: Auditing | undefined;
  /** With --shutdown-send-retry-after, set when stop() begins: new requests are answered 429. */
  private refusingNewRequests = false;

  constructor(private readonly deps: ServerDeps) {
    this.options = deps.options;
    // The grace counts from the server's construction, as upstream's from its own start.
    const graceMs = deps.options.livezGracePeriodMs;
    this.health = new HealthChecks(graceMs > 0 ? { untilMs: performance.now() + graceMs, now: () => performance.now() } : undefined);
    this.logger = deps.logger ?? new ConsoleLogger({ verbosity: deps.options.verbosity });
    this.version = versionInfo(deps.options.version.gitVersion);
    this.hooks = new PostStartHooks(this.health, this.logger);
    this.tokenAuthenticators = deps.tokenAuthenticators ?? [];
    if (deps.resourceHandler) this.router.setResourceHandler(deps.resourceHandler);
    this.installHealthChecks();
    this.installRoutes();
  }

  /** Non-resource routes (exact paths and prefixes). */
  get routes(): RouteTable {
    return this.router.routes;
  }

  /** Installs the handler for every resource request. */
  setResourceHandler(handler: Handler): void {
    this.router.setResourceHandler(handler);
  }

  /** Adds work to run once the server listens; /readyz fails until it finishes. */
  addPostStartHook(name: string, hook: PostStartHook): void {
    this.hooks.add(name, hook);
  }

  /** True once shutdown has begun (/readyz then fails). */
  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Where the server listens; undefined before {@link start}. */
  get info(): ServingInfo | undefined {
    return this.servingInfo;
  }

  /**
   * Prepares TLS material, listens, writes the admin kubeconfig and runs the post-start hooks.
   * Rejects (and listens on nothing) if the port cannot be bound or TLS files cannot be read.
   */
  async start(): Promise<ServingInfo> {
    if (this.listener) throw new Error('server already started');
    const { secureServing } = this.options;
    const [tls, tokenFile, proxyCaPem] = await Promise.all([this.prepareTls(), this.readTokenFile(), this.readRequestHeaderCa()]);
    // Upstream's order: the token file first, then the others (service account tokens, the webhook last).
    if (tokenFile) this.tokenAuthenticators = [tokenFile, ...this.tokenAuthenticators];
    const auditing = (this.auditing = buildAuditing(this.options.audit, this.logger));
    const listener = new HttpsListener({
      certPem: tls.serving.certPem,
      keyPem: tls.serving.keyPem,
      // The TLS layer trusts the front proxies' CAs too; each authenticator keeps to its own.
      clientCaPem: tls.clientCaPem + proxyCaPem,
      onRequest: this.buildChain(auditing, this.certificateAuthenticators(tls.clientCaPem, proxyCaPem)),
      logger: this.logger,
      disableHttp2: secureServing.disableHttp2,
      maxStreamsPerConnection: streamsPerConnection(secureServing.http2MaxStreamsPerConnection),
      ...(secureServing.tlsMinVersion !== undefined ? { minVersion: TLS_VERSIONS[secureServing.tlsMinVersion] } : {}),
      ...(secureServing.tlsCipherSuites.length > 0 ? { ciphers: opensslCipherList(secureServing.tlsCipherSuites) } : {}),
    });
    const address = await listener.listen(secureServing.bindAddress, secureServing.port).catch(async (err: unknown) => {
      await auditing?.sink.close();
      throw err;
    });
    if (this.options.debugSocketPath !== undefined) this.debugSocket = await this.listenOnDebugSocket(this.options.debugSocketPath, listener);
    this.listener = listener;
    const url = `https://${urlHost(reachableAddress(secureServing.bindAddress))}:${address.port}`;
    const kubeconfigPath = join(this.options.dataDir, 'admin.kubeconfig');
    await writeKubeconfig(kubeconfigPath, { server: url, caPem: tls.servingCaPem, client: tls.admin, name: 'capstan', userName: ADMIN_USER });
    this.servingInfo = { url, port: address.port, kubeconfigPath, tls };
    this.logger.info(`Serving securely on ${urlHost(address.address)}:${address.port}`);
    await this.hooks.runAll(this.lifetime.signal);
    if (this.options.profiling || this.debugSocket) this.startHeapSamplingSoon();
    return this.servingInfo;
  }

  /**
   * Begins loading (or, on a first start, generating) the TLS material, so that an owner can let
   * it proceed while it prepares other things; {@link start} waits for the same result. The
   * promise rejects as start() would: unreadable given files, an unwritable --cert-dir.
   */
  prepareTls(): Promise<TlsMaterial> {
    const { secureServing } = this.options;
    return (this.tls ??= bootstrapTls({
      certDir: secureServing.certDir,
      tlsCertFile: secureServing.tlsCertFile,
      tlsPrivateKeyFile: secureServing.tlsPrivateKeyFile,
      clientCaFile: this.options.authentication.clientCaFile,
      subjectAltNames: this.subjectAltNames(),
      logger: this.logger,
    }).then((material) => {
      warmUpOpenSsl();
      return material;
    }));
  }

  /**
   * The user a bearer token names, in system:authenticated, and the audiences of `audiences` (none:
   * the API's, --api-audiences) it is good for; undefined when no token authenticator accepts it
   * for any of them. For TokenReview; a request's own token goes through the chain. As upstream, a
   * token that names no audience (a static or bootstrap token) is good for the API's audiences only.
   */
  async reviewToken(token: string, audiences: readonly string[] = []): Promise<AudienceBoundUser | undefined> {
    const own = apiAudiencesOf(this.options.authentication.serviceAccounts);
    const wanted = audiences.length > 0 ? audiences : own;
    const implicit = wanted.filter((a) => own.includes(a));
    for (const authenticator of this.tokenAuthenticators) {
      let found: AudienceBoundUser | undefined;
      if (authenticator.authenticateTokenFor) found = await authenticator.authenticateTokenFor(token, wanted);
      else if (implicit.length > 0) {
        const user = await authenticator.authenticateToken(token);
        found = user && { user, audiences: implicit };
      }
      if (found) return { user: withAuthenticatedGroup(found.user), audiences: found.audiences };
    }
    return undefined;
  }

  private readTokenFile(): Promise<TokenAuthenticator | undefined> {
    const path = this.options.authentication.tokenAuthFile;
    return path ? readTokenFile(path, (message) => this.logger.warn(message)) : Promise.resolve(undefined);
  }

  /** Makes /readyz fail while requests are still served (for --shutdown-delay-duration). */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  /**
   * Stops gracefully: no new connections; watches and other long-running requests end at once;
   * other requests get up to `graceMs` (default: the request timeout) to finish; then every
   * connection closes. With --shutdown-send-retry-after the port stays open until then, and new
   * requests are answered 429 with Retry-After. Safe to call more than once.
   */
  async stop(graceMs: number = this.options.limits.requestTimeoutMs): Promise<void> {
    this.beginShutdown();
    this.lifetime.abort(new Error('server is stopping'));
    const listener = this.listener;
    if (!listener) return;
    if (this.options.shutdownSendRetryAfter) this.refusingNewRequests = true;
    else listener.stopAccepting();
    this.inFlight.abortAll(new Error('server is shutting down'), true);
    let timer: LongTimeout | undefined;
    // The grace is the request timeout, which may be longer than a Node timer holds.
    await Promise.race([this.inFlight.drained(), new Promise<void>((resolve) => (timer = setLongTimeout(resolve, graceMs)))]);
    timer?.cancel();
    await batchWritten();
    listener.stopAccepting();
    this.inFlight.abortAll(new Error('server is shutting down'));
    await Promise.all([listener.destroyAll(), this.debugSocket?.close()]);
    // After the last request: batched events are written out and the log file closed (once).
    const auditing = this.auditing;
    this.auditing = undefined;
    await auditing?.sink.close();
    this.profilers.stop();
  }

  /**
   * Heap sampling for /debug/pprof/heap begins a moment after the server is ready, so that loading
   * the inspector (~5 ms) delays neither readiness nor the first answers.
   */
  private startHeapSamplingSoon(): void {
    const timer = setTimeout(() => {
      this.profilers.startHeapSampling().catch((err: Error) => this.logger.warn(`heap sampling did not start: ${err.message}`));
    }, HEAP_SAMPLING_DELAY_MS);
    timer.unref();
    this.lifetime.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  }

  /** The --debug-socket-path socket; when it cannot listen, the HTTPS listener closes too. */
  private async listenOnDebugSocket(path: string, listener: HttpsListener): Promise<DebugSocket> {
    const debugSocket = new DebugSocket(path, this.logger, this.profilers);
    try {
      await debugSocket.listen();
      return debugSocket;
    } catch (err) {
      await listener.destroyAll();
      throw new Error(`cannot listen on --debug-socket-path ${path}: ${(err as Error).message}`);
    }
  }

  /** The --requestheader-client-ca-file bundle, ending with a newline; empty without one. */
  private async readRequestHeaderCa(): Promise<string> {
    const path = this.options.authentication.requestHeader.clientCaFile;
    if (!path) return '';
    const pem = await readFile(path, 'utf8');
    return pem.endsWith('\n') ? pem : `${pem}\n`;
  }

  /** The front proxies' authenticator (first, as upstream) and the client certificates'. */
  private certificateAuthenticators(clientCaPem: string, proxyCaPem: string): Authenticator[] {
    if (proxyCaPem === '') return [new X509Authenticator()];
    const proxies = new RequestHeaderAuthenticator({ ...this.options.authentication.requestHeader, anchors: fingerprintsOf(proxyCaPem) });
    return [proxies, new X509Authenticator(fingerprintsOf(clientCaPem))];
  }

  private buildChain(auditing: Auditing | undefined, certificateAuthenticators: readonly Authenticator[]) {
    const { authentication, authorization, limits } = this.options;
    return buildHandlerChain({
      handler: this.router.handle,
      logger: this.logger,
      resolver: new RequestInfoResolver(),
      inFlight: this.inFlight,
      authenticators: [...certificateAuthenticators, new BearerTokenAuthenticator(this.tokenAuthenticators)],
      anonymous: anonymousAccess(authentication.anonymous, authorization.modes, (message) => this.logger.warn(message)),
      authorizer: this.deps.authorizer ?? buildAuthorizer(authorization.modes, authorization),
      requestTimeoutMs: limits.requestTimeoutMs,
      maxRequestsInflight: limits.maxRequestsInflight,
      maxMutatingRequestsInflight: limits.maxMutatingRequestsInflight,
      hstsDirectives: this.options.hstsDirectives,
      corsAllowedOrigins: this.options.corsAllowedOrigins,
      // Upstream installs it only where HTTP/2 is served.
      goawayChance: this.options.secureServing.disableHttp2 ? 0 : this.options.goawayChance,
      ...(auditing ? { auditing } : {}),
      ...(this.options.shutdownSendRetryAfter ? { refusingNewRequests: () => this.refusingNewRequests } : {}),
    });
  }

  private installHealthChecks(): void {
    const { storage, informersSynced } = this.deps;
    this.health.add(pingCheck).add(logCheck(this.logger));
    if (storage) {
      const check = (signal: AbortSignal) => storage.checkHealth(signal);
      this.health.add(storeCheck('etcd', check, this.options.store.healthcheckTimeoutMs));
      this.health.add(storeCheck('etcd-readiness', check, this.options.store.readycheckTimeoutMs), ['readyz']);
    }
    this.health.add(conditionCheck('informer-sync', informersSynced ?? (() => true), 'informers not synced yet'), ['readyz']);
    this.health.add(shutdownCheck(() => this.shuttingDown), ['readyz']);
  }

  private installRoutes(): void {
    for (const endpoint of ['healthz', 'livez', 'readyz'] as const) {
      this.routes.add(`/${endpoint}`, rootHealthHandler(endpoint, this.health, this.logger));
      this.routes.addPrefix(`/${endpoint}/`, singleHealthHandler(endpoint, this.health));
    }
    // Upstream serves the version at "/version/" as well, which is where the Python client asks.
    const version = versionHandler(this.version);
    this.routes.add('/version', version).add('/version/', version);
    if (this.options.profiling) {
      installProfiling(this.routes, this.profilers);
      installDebugFlags(this.routes, this.logger);
    }
  }

  /** Every name the generated serving certificate must cover. */
  private subjectAltNames(): string[] {
    const names = new Set(['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local', '127.0.0.1', '::1']);
    const host = hostname().toLowerCase();
    if (/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(host)) names.add(host);
    const bind = this.options.secureServing.bindAddress;
    if (bind !== '' && bind !== '0.0.0.0' && bind !== '::') names.add(bind);
    for (const range of this.options.services.clusterIpRanges) names.add(firstAddress(parseCidr(range)));
    return [...names];
  }
}

/** An address a client on this machine can use: loopback when listening on every interface. */
function reachableAddress(bindAddress: string): string {
  return bindAddress === '' || bindAddress === '0.0.0.0' || bindAddress === '::' ? '127.0.0.1' : bindAddress;
}

function urlHost(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

/**
 * The flag's value as upstream hands it to Go's HTTP/2 server: not above 0 means the default, and
 * a larger value is cut to 32 bits as Go's uint32 conversion cuts it.
 */
function streamsPerConnection(flag: number): number | undefined {
  return flag > 0 ? flag % 2 ** 32 : undefined;
}
