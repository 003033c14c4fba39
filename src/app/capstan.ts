/**
 * The composition root: builds a whole Capstan from its options (storage, catalog, registry with
 * its watch caches, in-process controllers, routes) around the HTTPS Server. The CLI and the
 * end-to-end tests both start servers through it.
 */
import { apiAudiencesOf, type ServerOptions } from '../cli/options.js';
import { buildAuthorizer } from '../auth/authorizer.js';
import { NamespaceController, namespacedDefinitions } from '../controllers/namespace-controller.js';
import { NamespaceDefaultsController } from '../controllers/namespace-defaults-controller.js';
import { sleep } from '../util/sleep.js';
import { installAdmission, planAdmission, type AdmissionPlan } from './admission-setup.js';
import { discoveryHandlers } from '../endpoints/discovery-routes.js';
import { issuerDiscoveryHandlers } from '../endpoints/issuer-discovery-routes.js';
import { JWKS_PATH, OPENID_CONFIGURATION_PATH } from '../auth/service-account/issuer-discovery.js';
import { loadServiceAccountTokens, type ServiceAccountTokens } from './service-account-tokens.js';
import { webhookTokenAuthenticator } from '../auth/webhook/build-webhook-token-authenticator.js';
import { jwtAuthenticators } from '../auth/oidc/build-oidc-authenticator.js';
import type { OidcAuthenticator } from '../auth/oidc/oidc-authenticator.js';
import { BOOTSTRAP_TOKEN_NAMESPACE, BootstrapTokenAuthenticator } from '../auth/bootstrap-token-authenticator.js';
import { getIfExists } from '../registry/store/get-if-exists.js';
import { ServiceAccountTokenController } from '../controllers/service-account-token-controller.js';
import { openApiHandlers } from '../endpoints/openapi-routes.js';
import { EncodingMemo, RESPONSE_ENCODINGS_BUDGET } from '../endpoints/encoding-memo.js';
import { FlushQueue } from '../endpoints/handlers/flush-queue.js';
import { createResourceHandler } from '../endpoints/resource-handler.js';
import type { OpenApiDocuments } from '../openapi/openapi-documents.js';
import { loadBuiltinCatalog } from '../registry/catalog/builtin-catalog.js';
import type { Catalog } from '../registry/catalog/catalog.js';
import { KeyLayout } from '../registry/keys.js';
import { decodeFromStorage } from '../registry/object-codec.js';
import type { KubeObject } from '../registry/object.js';
import { Registry } from '../registry/registry.js';
import { ObjectChecker } from '../registry/schema/object-checker.js';
import { loadBuiltinSchemas, type SchemaSet } from '../registry/schema/schema-set.js';
import { Server, type ServingInfo } from '../server/server.js';
import type { Logger } from '../server/logger.js';
import { Cacher } from '../storage/cacher/cacher.js';
import { Compactor } from '../storage/compactor.js';
import type { Storage } from '../storage/storage.js';
import { schemaFieldChecker } from './field-checker.js';
import { openStorage } from './open-storage.js';
import { patchersBySchema } from './patchers.js';
import { standardCodecs } from '../serialization/standard-codecs.js';
import { CodecRegistry } from '../serialization/codec.js';
import { ProtobufCodec } from '../serialization/protobuf/protobuf-codec.js';
import { buildStrategies } from './strategies.js';
import { fieldManagers } from './field-managers.js';
import { ensureSystemNamespaces } from './system-namespaces.js';
import { advertiseAddress, ensureKubernetesService } from './kubernetes-service.js';
import { firstAddress, parseCidr } from '../server/cidr.js';
import { RbacSetup } from './rbac-setup.js';
import { RBAC_GROUP } from '../registry/strategies/rbac-rules.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import type { Authorizer, RuleResolver } from '../auth/authorizer.js';

export interface CapstanDeps {
  readonly options: ServerOptions;
  readonly logger?: Logger;
  /** A store opened by the caller (tests); otherwise chosen from the options. */
  readonly storage?: Storage;
}

/** How often an unreachable store is tried again (and the failure logged) before the caches start. */
const STORE_RETRY_MS = 2000;

/**
 * Waits until the store answers, saying clearly in the log why the server is not ready yet; /readyz
 * reports the failing `etcd` check meanwhile.
 */
async function waitForStore(storage: Storage, logger: Logger, signal: AbortSignal): Promise<void> {
  for (;;) {
    try {
      await storage.checkHealth(signal);
      return;
    } catch (err) {
      if (signal.aborted) throw err;
      logger.warn(`${(err as Error).message}; not ready, trying again in ${STORE_RETRY_MS / 1000}s`);
      await sleep(STORE_RETRY_MS, signal);
    }
  }
}

export class Capstan {
  readonly server: Server;
  readonly catalog: Catalog;
  private readonly schemas: SchemaSet;
  private storage: Storage | undefined;
  private registry: Registry | undefined;
  private compactor: Compactor | undefined;
  private namespaceController: NamespaceController | undefined;
  private namespaceDefaults: NamespaceDefaultsController | undefined;
  private tokenController: ServiceAccountTokenController | undefined;
  /** The roles and bindings RBAC decides by, kept current from watches once the registry runs. */
  private readonly rbac: RbacSetup;
  /** One authorizer for the handler chain and the access reviews, so that both judge alike. */
  private readonly authorizer: Authorizer & RuleResolver;
  /** The enabled admission plugins and their configuration file, read before anything starts. */
  private readonly admission: AdmissionPlan;
  /** --authentication-config's issuers, or --oidc-*'s: ID tokens, checked with keys fetched from their issuers. */
  private readonly jwtAuthenticators: readonly OidcAuthenticator[];
  /** Service account tokens' keys, issuer and authenticator; loaded at start, before any request. */
  private serviceAccountTokens: ServiceAccountTokens | undefined;

  constructor(private readonly deps: CapstanDeps) {
    const { modes, ...files } = deps.options.authorization;
    const { configFile, oidc } = deps.options.authentication;
    this.jwtAuthenticators = jwtAuthenticators(configFile, oidc, (message) => this.server.logger.info(message, 2));
    this.admission = planAdmission(deps.options.admission);
    this.rbac = new RbacSetup(modes.includes('RBAC'), () => this.server.logger);
    this.authorizer = buildAuthorizer(modes, { rbac: this.rbac.policy, ...files, log: deps.logger });
    this.server = new Server({
      options: deps.options,
      ...(deps.logger ? { logger: deps.logger } : {}),
      storage: { checkHealth: (s) => this.requireStorage().checkHealth(s) },
      authorizer: this.authorizer,
      tokenAuthenticators: [
        ...optional(deps.options.authentication.bootstrapTokens ? new BootstrapTokenAuthenticator((name) => this.bootstrapSecret(name), (m) => this.server.logger.info(m, 3)) : undefined),
        {
          authenticateToken: (token) => this.serviceAccountTokens?.authenticator.authenticateToken(token),
          authenticateTokenFor: async (token, audiences) => this.serviceAccountTokens?.authenticator.authenticateTokenFor(token, audiences),
        },
        ...this.jwtAuthenticators,
        // Upstream asks the webhook last, about tokens none of the others knows.
        ...optional(webhookTokenAuthenticator(deps.options.authentication.tokenWebhook, apiAudiencesOf(deps.options.authentication.serviceAccounts), (message) => this.server.logger.warn(message))),
      ],
      // Only RBAC reads informers here; readiness waits until it holds every role and binding.
      informersSynced: () => this.rbac.synced(),
    });
    this.catalog = loadBuiltinCatalog();
    this.schemas = loadBuiltinSchemas();
  }

  private requireStorage(): Storage {
    if (!this.storage) throw new Error('storage is not open yet');
    return this.storage;
  }

  /** Opens the store, fills the caches, starts listening and the controllers. */
  async start(): Promise<ServingInfo> {
    const { options } = this.deps;
    const logger = this.server.logger;
    // The embedded store's writer thread takes tens of milliseconds to boot, during which this
    // thread would idle: the certificates are loaded (or, on a first start, generated) meanwhile.
    // A failure surfaces from server.start(); the catch only keeps it from counting as unhandled
    // when opening the store fails first.
    this.server.prepareTls().catch(() => undefined);
    for (const jwt of this.jwtAuthenticators) jwt.warmUp();
    const tokens = loadServiceAccountTokens(
      options.authentication.serviceAccounts,
      options.secureServing.certDir,
      (resource) => this.registry?.storeFor(this.catalog.resource('', 'v1', resource)!),
      (message) => logger.info(message, 4),
    );
    tokens.catch(() => undefined); // awaited below, once the store is open
    this.storage = this.deps.storage ?? (await openStorage(options.store, options.dataDir, logger));
    this.serviceAccountTokens = await tokens;
    const storage = this.storage;
    const keys = new KeyLayout(options.store.prefix.replace(/\/+$/, ''));
    const definitions = this.catalog.groupVersions().flatMap((gv) => gv.resources);
    const strategyFor = buildStrategies({
      options, schemas: this.schemas, storage, keys,
      serviceAccountExists: (namespace, name) => this.namespaceDefaults?.serviceAccountExists(namespace, name),
    });
    const registry: Registry = new Registry({
      storage,
      keys,
      newCache: (prefix) => new Cacher<KubeObject>({ storage, prefix, decoder: decodeFromStorage }),
      strategyFor,
      fieldManagerFor: fieldManagers(this.schemas),
      writeGuardFor: (definition) => this.rbac.writeGuardFor(definition, this.authorizer, (resource) => registry.storeFor(this.catalog.resource(RBAC_GROUP, definition.version, resource)!)),
    });
    this.registry = registry;
    const namespacesDef = this.catalog.resource('', 'v1', 'namespaces')!;
    const namespaces = registry.storeFor(namespacesDef);
    installAdmission(this.admission, registry, namespaces, logger);

    const checker = new ObjectChecker(this.schemas);
    this.server.setResourceHandler(
      createResourceHandler({
        catalog: () => this.catalog,
        registry,
        env: {
          codecs: new CodecRegistry([...standardCodecs().codecs, new ProtobufCodec()]),
          checkFields: schemaFieldChecker(checker),
          patchersFor: patchersBySchema(this.schemas),
          minRequestTimeoutSeconds: options.limits.minRequestTimeoutSeconds,
          deleteCollectionWorkers: options.deleteCollectionWorkers,
          encodings: new EncodingMemo(RESPONSE_ENCODINGS_BUDGET),
          watchFlushes: new FlushQueue(),
          featureGates: options.featureGates,
        },
        reviewers: { authorizer: this.authorizer, tokens: this.server },
        tokens: this.serviceAccountTokens.requests,
      }),
    );
    this.installRoutes();

    // Settles when the caches run and the system namespaces exist: what the hooks below build on.
    let registryStarted!: { resolve: () => void; reject: (err: unknown) => void };
    const registryReady = new Promise<void>((resolve, reject) => (registryStarted = { resolve, reject }));
    registryReady.catch(() => undefined); // reported by the start-registry hook itself
    const rbacStore = (resource: string): ResourceStore => registry.storeFor(this.catalog.resource(RBAC_GROUP, 'v1', resource)!);

    this.server.addPostStartHook('start-registry', async (signal) => {
      try {
        await waitForStore(storage, logger, signal);
        await registry.start(definitions);
        await ensureSystemNamespaces(namespaces);
        registryStarted.resolve();
      } catch (err) {
        registryStarted.reject(err);
        throw err;
      }
      const namespaced = namespacedDefinitions(definitions).map((d) => registry.storeFor(d));
      this.namespaceController = new NamespaceController({
        namespaces,
        namespacedStores: () => namespaced,
        log: (m) => logger.warn(m),
      });
      this.namespaceController.start();
      const store = (resource: string) => registry.storeFor(this.catalog.resource('', 'v1', resource)!);
      this.namespaceDefaults = new NamespaceDefaultsController({
        namespaces,
        serviceAccounts: store('serviceaccounts'),
        configMaps: store('configmaps'),
        caPem: this.server.info?.tls.servingCaPem ?? '',
        log: (m) => logger.warn(m),
      });
      this.namespaceDefaults.start();
      const tokens = this.serviceAccountTokens!;
      this.tokenController = new ServiceAccountTokenController({
        secrets: store('secrets'),
        serviceAccounts: store('serviceaccounts'),
        issueLegacyToken: (account, secretName) => tokens.issueLegacyToken(account, secretName),
        caPem: this.server.info?.tls.servingCaPem ?? '',
        log: (m) => logger.warn(m),
      });
      this.tokenController.start();
      this.rbac.start(rbacStore);
      // Not awaited: readiness does not wait for it (upstream's bootstrap controller runs apart too).
      const slices = this.catalog.resource('discovery.k8s.io', 'v1', 'endpointslices');
      void ensureKubernetesService(
        { services: store('services'), endpoints: store('endpoints'), endpointSlices: slices ? registry.storeFor(slices) : undefined },
        {
          clusterIp: firstAddress(parseCidr(options.services.clusterIpRanges[0]!)),
          address: options.secureServing.advertiseAddress ?? advertiseAddress(options.secureServing.bindAddress),
          port: this.server.info?.port ?? options.secureServing.port,
        },
      ).catch((err: Error) => logger.warn(`the kubernetes service: ${err.message}`));
      // The caches learn of each compaction at once, so exact reads below it answer 410 as the store does.
      const compacting = {
        currentRevision: () => storage.currentRevision(),
        compact: async (revision: number) => {
          await storage.compact(revision);
          registry.forgetBefore(revision);
        },
      };
      this.compactor = new Compactor({ storage: compacting, intervalMs: options.store.compactionIntervalMs, logger });
      this.compactor.start();
    });
    // Upstream's name for it, whatever the authorization mode: the default roles always exist.
    this.server.addPostStartHook('rbac/bootstrap-roles', async () => {
      await registryReady;
      await this.rbac.ensureDefaults(rbacStore);
    });
    return this.server.start();
  }

  /** A Secret of kube-system as stored (from the cache), undefined when it does not exist or the registry is not running yet. */
  private bootstrapSecret(name: string): Promise<Record<string, unknown> | undefined> {
    const registry = this.registry;
    if (registry === undefined) return Promise.resolve(undefined);
    return getIfExists(registry.storeFor(this.catalog.resource('', 'v1', 'secrets')!), BOOTSTRAP_TOKEN_NAMESPACE, name);
  }

  /** host:port as clients are told to reach this server (discovery, the default key set URI). */
  private serverAddress(): string {
    const url = new URL(this.server.info?.url ?? 'https://127.0.0.1:6443');
    const external = this.deps.options.secureServing.externalHostname;
    // Upstream joins the name and the port as Go's net.JoinHostPort does: brackets around any ':'.
    if (external !== undefined) return `${external.includes(':') ? `[${external}]` : external}:${url.port}`;
    return url.host;
  }

  /** The issuer discovery endpoints, served when the issuer is an https URL (upstream's rule). */
  private installIssuerDiscovery(): void {
    const tokens = this.serviceAccountTokens;
    if (tokens === undefined || !tokens.discoverable) return;
    const handlers = issuerDiscoveryHandlers(() => tokens.discovery(this.serverAddress()));
    this.server.routes.add(OPENID_CONFIGURATION_PATH, handlers.configuration).add(JWKS_PATH, handlers.keySet);
  }

  private installRoutes(): void {
    const discovery = discoveryHandlers({ catalog: () => this.catalog, serverAddress: () => this.serverAddress() });
    let documents: Promise<OpenApiDocuments> | undefined;
    const openapi = openApiHandlers(() =>
      (documents ??= import('../openapi/openapi-documents.js').then(
        ({ OpenApiDocuments }) => new OpenApiDocuments(this.catalog, () => this.schemas, this.server.version.gitVersion),
      )),
    );
    this.installIssuerDiscovery();
    this.server.routes
      .add('/api', discovery.legacyRoot)
      .add('/apis', discovery.groupsRoot)
      .addPrefix('/api/', discovery.groupPaths)
      .addPrefix('/apis/', discovery.groupPaths)
      .add('/openapi/v2', openapi.v2)
      .addPrefix('/openapi/v3', openapi.v3);
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.namespaceController?.close();
    await this.namespaceDefaults?.close();
    await this.tokenController?.close();
    await this.rbac.close();
    await this.compactor?.stop();
    await this.registry?.stop();
    await this.storage?.close();
  }
}

/** No element, or the one given. */
function optional<T>(value: T | undefined): T[] {
  return value === undefined ? [] : [value];
}
