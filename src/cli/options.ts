/**
 * The server's options, typed. The CLI parses flags into this shape (parse-flags.ts), checks it
 * (validate-options.ts), and the server is built from it. Tests and embedders build it with
 * {@link defaultServerOptions}. Durations are milliseconds.
 */
import { homedir } from 'node:os';
import { defaultAuditOptions, type AuditOptions } from './audit-options.js';
import { join, resolve } from 'node:path';
import type { WebhookAuthorizerSettings } from '../auth/webhook/build-webhook-authorizer.js';
import type { TokenWebhookSettings } from '../auth/webhook/build-webhook-token-authenticator.js';
import type { OidcSettings } from '../auth/oidc/oidc-authenticator.js';

export interface SecureServingOptions {
  /** --bind-address; "0.0.0.0" or "::" or "" listens on every interface. */
  readonly bindAddress: string;
  /** --secure-port; 0 picks a free port (a Capstan extension, for tests). */
  readonly port: number;
  /** --cert-dir; default `<data-dir>/pki`. */
  readonly certDir: string;
  readonly tlsCertFile?: string;
  readonly tlsPrivateKeyFile?: string;
  /** --advertise-address: the address the `kubernetes` Service's endpoint names; unset: derived from the bind address. */
  readonly advertiseAddress?: string;
  /**
   * --external-hostname: the host in addresses given to clients (discovery's
   * serverAddressByClientCIDRs), with the secure port; unset: the address the server is reached at.
   */
  readonly externalHostname?: string;
  /** --disable-http2-serving: HTTP/1.1 only. */
  readonly disableHttp2: boolean;
  /** --http2-max-streams-per-connection; 0: the server's default (https-listener.ts). */
  readonly http2MaxStreamsPerConnection: number;
  /** --tls-min-version, Go's name (VersionTLS12); unset: TLS 1.2. */
  readonly tlsMinVersion?: string;
  /** --tls-cipher-suites, Go's names; none: OpenSSL's defaults. */
  readonly tlsCipherSuites: readonly string[];
}

export interface AuthenticationOptions {
  /** --anonymous-auth. */
  readonly anonymous: boolean;
  /** --client-ca-file. */
  readonly clientCaFile?: string;
  /** --token-auth-file: static bearer tokens (CSV). */
  readonly tokenAuthFile?: string;
  /** --enable-bootstrap-token-auth: bootstrap tokens (Secrets of kube-system) authenticate. */
  readonly bootstrapTokens: boolean;
  readonly serviceAccounts: ServiceAccountOptions;
  /** --authentication-token-webhook-*: the webhook asked about tokens no other authenticator knows. */
  readonly tokenWebhook: TokenWebhookSettings;
  /** --requestheader-*: a front proxy, known by its client certificate, names the user in headers. */
  readonly requestHeader: RequestHeaderOptions;
  /** --oidc-*: ID tokens of one OpenID Connect issuer. */
  readonly oidc: OidcOptions;
  /** --authentication-config: an AuthenticationConfiguration file (its JWT issuers). */
  readonly configFile?: string;
}

/** The --oidc-* options; without an issuer URL, no OIDC token is accepted. */
export interface OidcOptions extends Omit<OidcSettings, 'issuerUrl' | 'clientId'> {
  readonly issuerUrl?: string;
  readonly clientId?: string;
  readonly caFile?: string;
}

/** The --requestheader-* options; without a CA file, no request is authenticated by headers. */
export interface RequestHeaderOptions {
  /** --requestheader-client-ca-file: the CAs of the front proxies' client certificates. */
  readonly clientCaFile?: string;
  /** --requestheader-allowed-names: the common names a proxy's certificate may have; none: any. */
  readonly allowedNames: readonly string[];
  /** --requestheader-username-headers, in order: the first one present names the user. */
  readonly usernameHeaders: readonly string[];
  /** --requestheader-uid-headers, in order. */
  readonly uidHeaders: readonly string[];
  /** --requestheader-group-headers: every value of each is a group. */
  readonly groupHeaders: readonly string[];
  /** --requestheader-extra-headers-prefix: headers under each prefix are extra attributes. */
  readonly extraHeadersPrefixes: readonly string[];
}

/** The service account token options (--service-account-*, --api-audiences). */
export interface ServiceAccountOptions {
  /** --service-account-issuer, in order: the first signs, all are accepted. None: Capstan's default. */
  readonly issuers: readonly string[];
  /** --service-account-key-file: PEM files of the keys that verify tokens (besides the signing key's). */
  readonly keyFiles: readonly string[];
  /** --service-account-signing-key-file; none: a key generated into the certificate directory. */
  readonly signingKeyFile?: string;
  /** --service-account-jwks-uri: the key set's URI in the discovery document. */
  readonly jwksUri?: string;
  /** --api-audiences; none: the first issuer. */
  readonly apiAudiences: readonly string[];
  /** --service-account-max-token-expiration in milliseconds; 0: no cap. */
  readonly maxTokenExpirationMs: number;
  /** --service-account-lookup: a token's account (and bound object) must still exist. */
  readonly lookup: boolean;
  /** --service-account-extend-token-expiration (accepted; Capstan injects no tokens into pods). */
  readonly extendTokenExpiration: boolean;
}

export interface AuthorizationOptions {
  /** --authorization-mode, in order; see IMPLEMENTED_AUTHORIZATION_MODES. */
  readonly modes: readonly string[];
  /** --authorization-policy-file: ABAC's policies, one JSON object a line. */
  readonly policyFile?: string;
  /** --authorization-webhook-*: the Webhook mode's kubeconfig, review version and cache times. */
  readonly webhook: WebhookAuthorizerSettings;
}

export interface StoreOptions {
  /** --store-servers (alias --etcd-servers): empty means the embedded store in the data directory. */
  readonly servers: readonly string[];
  /** --store-prefix. */
  readonly prefix: string;
  readonly caFile?: string;
  readonly certFile?: string;
  readonly keyFile?: string;
  readonly healthcheckTimeoutMs: number;
  readonly readycheckTimeoutMs: number;
  /** 0 disables compaction. */
  readonly compactionIntervalMs: number;
}

export interface LimitOptions {
  readonly requestTimeoutMs: number;
  /** --min-request-timeout, seconds: watches pick a random timeout above it. */
  readonly minRequestTimeoutSeconds: number;
  /** 0 disables. */
  readonly maxRequestsInflight: number;
  /** 0 disables. */
  readonly maxMutatingRequestsInflight: number;
}

export interface ServiceOptions {
  /** --service-cluster-ip-range: one CIDR, or two for dual-stack. */
  readonly clusterIpRanges: readonly string[];
  /** --service-node-port-range, inclusive. */
  readonly nodePortRange: { readonly min: number; readonly max: number };
}

/** --enable-admission-plugins, --disable-admission-plugins and --admission-control-config-file. */
export interface AdmissionOptions {
  /** Plugins run besides the default ones, as given. */
  readonly enablePlugins: readonly string[];
  /** Default plugins not run, as given. */
  readonly disablePlugins: readonly string[];
  /** The AdmissionConfiguration file; unset: none. */
  readonly configFile?: string;
}

/** The version the server reports; --version=vX.Y.Z overrides it. */
export interface VersionOptions {
  readonly gitVersion: string;
}

export interface ServerOptions {
  /** --data-dir: the embedded store's directory and generated files (certificates, kubeconfig). */
  readonly dataDir: string;
  readonly secureServing: SecureServingOptions;
  readonly authentication: AuthenticationOptions;
  readonly authorization: AuthorizationOptions;
  readonly admission: AdmissionOptions;
  readonly store: StoreOptions;
  readonly limits: LimitOptions;
  readonly services: ServiceOptions;
  /** --goaway-chance: the share of HTTP/2 requests that send their connection GOAWAY (at most 0.02). */
  readonly goawayChance: number;
  /** --cors-allowed-origins: Go regular expressions of the origins let in; none: no CORS. */
  readonly corsAllowedOrigins: readonly string[];
  /** --strict-transport-security-directives: the HSTS header's directives, none for no header. */
  readonly hstsDirectives: readonly string[];
  /**
   * --shutdown-send-retry-after: when stopping, keep the port open until in-flight requests finish
   * and answer new ones 429 with Retry-After, instead of closing it at once.
   */
  readonly shutdownSendRetryAfter: boolean;
  /** --livez-grace-period: how long after startup /livez passes whatever its checks say. */
  readonly livezGracePeriodMs: number;
  /** --shutdown-delay-duration: how long /readyz fails before the server stops serving. */
  readonly shutdownDelayMs: number;
  /** --allow-privileged: whether containers may run privileged (upstream's default: no). */
  readonly allowPrivileged: boolean;
  /** --profiling: serve CPU and heap profiles at /debug/pprof/ and -v at /debug/flags/v (upstream's default: yes). */
  readonly profiling: boolean;
  /** --debug-socket-path: a unix socket serving /debug/pprof/ and /debug/flags/v to anyone who can open it. */
  readonly debugSocketPath?: string;
  /** --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds. */
  readonly defaultTolerationSeconds: { readonly notReady: number; readonly unreachable: number };
  /** --delete-collection-workers: objects a deletecollection deletes at once. */
  readonly deleteCollectionWorkers: number;
  /** --feature-gates, as given. */
  readonly featureGates: Readonly<Record<string, boolean>>;
  /** -v. */
  readonly verbosity: number;
  /** --logging-format: only "text", the one format Capstan writes. */
  readonly loggingFormat: string;
  /**
   * --log-flush-frequency: the longest a log line may wait to be written. Capstan writes every
   * line as it is logged, so any value holds; kept so that the flag reads as upstream's.
   */
  readonly logFlushFrequencyMs: number;
  /** --audit-policy-file and --audit-log-*. */
  readonly audit: AuditOptions;
  readonly version: VersionOptions;
}

/** The issuer of service account tokens when none is given: kubeadm's, the in-cluster service name. */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

/** --api-audiences as they apply: when none are given, the first issuer (upstream's default). */
export function apiAudiencesOf(options: ServiceAccountOptions): readonly string[] {
  if (options.apiAudiences.length > 0) return options.apiAudiences;
  return [options.issuers[0] ?? DEFAULT_SERVICE_ACCOUNT_ISSUER];
}

/** The Kubernetes release whose API Capstan serves. */
export const KUBERNETES_VERSION = 'v1.35.0';

/**
 * `$XDG_DATA_HOME/capstan`, else `~/.local/share/capstan` (the XDG base directory default).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME ? env.XDG_DATA_HOME : join(env.HOME || homedir(), '.local', 'share');
  return join(base, 'capstan');
}

/** Every option at its default, for the given data directory. */
export function defaultServerOptions(dataDir: string = defaultDataDir()): ServerOptions {
  const absolute = resolve(dataDir);
  return {
    dataDir: absolute,
    secureServing: { bindAddress: '0.0.0.0', port: 6443, certDir: join(absolute, 'pki'), disableHttp2: false, http2MaxStreamsPerConnection: 0, tlsCipherSuites: [] },
    authentication: { anonymous: true, oidc: { usernameClaim: 'sub', groupsPrefix: '', requiredClaims: {}, signingAlgorithms: ['RS256'] }, bootstrapTokens: false, requestHeader: { allowedNames: [], usernameHeaders: [], uidHeaders: [], groupHeaders: [], extraHeadersPrefixes: [] }, tokenWebhook: { version: 'v1beta1', cacheTtlMs: 2 * 60_000 }, serviceAccounts: { issuers: [], keyFiles: [], apiAudiences: [], maxTokenExpirationMs: 0, lookup: true, extendTokenExpiration: true } },
    authorization: { modes: ['AlwaysAllow'], webhook: { version: 'v1beta1', cacheAuthorizedTtlMs: 5 * 60_000, cacheUnauthorizedTtlMs: 30_000 } },
    admission: { enablePlugins: [], disablePlugins: [] },
    store: {
      servers: [],
      prefix: '/registry',
      healthcheckTimeoutMs: 2000,
      readycheckTimeoutMs: 2000,
      compactionIntervalMs: 5 * 60_000,
    },
    limits: {
      requestTimeoutMs: 60_000,
      minRequestTimeoutSeconds: 1800,
      maxRequestsInflight: 400,
      maxMutatingRequestsInflight: 200,
    },
    services: { clusterIpRanges: ['10.0.0.0/24'], nodePortRange: { min: 30000, max: 32767 } },
    goawayChance: 0,
    corsAllowedOrigins: [],
    hstsDirectives: [],
    livezGracePeriodMs: 0,
    shutdownDelayMs: 0,
    shutdownSendRetryAfter: false,
    allowPrivileged: false,
    profiling: true,
    defaultTolerationSeconds: { notReady: 300, unreachable: 300 },
    deleteCollectionWorkers: 1,
    featureGates: {},
    verbosity: 0,
    loggingFormat: 'text',
    logFlushFrequencyMs: 5000,
    audit: defaultAuditOptions(),
    version: { gitVersion: KUBERNETES_VERSION },
  };
}
