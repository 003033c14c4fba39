/**
 * Command-line flags -> {@link ServerOptions}. Names and defaults are upstream's (see
 * shared/spec/server-options.md); where the spec renames a flag (`--store-*`), the upstream
 * spelling (`--etcd-*`) is accepted too. Commander handles the syntax; values are converted here
 * so that every error names the flag as typed. Semantic checks live in validate-options.ts.
 */
import { Command, CommanderError, Option } from 'commander';
import { resolve, join } from 'node:path';
import { formatDuration } from '../server/duration.js';
import { FlagError, FlagValues, type RawFlag } from './flag-values.js';
import { versionInfo } from '../server/version.js';
import { AUDIT_FLAGS, auditOptionsFrom } from './audit-options.js';
import { ADMISSION_PLUGIN_ORDER, DEFAULT_ON_ADMISSION_PLUGINS, HONOURED_ADMISSION_PLUGINS } from '../admission/admission-plugins.js';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER, KUBERNETES_VERSION, defaultDataDir, defaultServerOptions, type ServerOptions } from './options.js';

export type CliCommand =
  /** Run the server with these options. */
  | { readonly action: 'serve'; readonly options: ServerOptions }
  /** Print this (help, version) and exit successfully. */
  | { readonly action: 'print'; readonly text: string };

export interface FlagSpec {
  /** Canonical name without dashes, e.g. `store-servers`. */
  readonly name: string;
  /** Value placeholder; omitted for flags whose value is optional (booleans, --version). */
  readonly value?: string;
  readonly description: string;
  readonly defaultText?: string;
  readonly short?: string;
  /** The upstream spelling accepted as well, e.g. `etcd-servers`. */
  readonly alias?: string;
  readonly repeatable?: boolean;
}

const DEFAULTS = defaultServerOptions('<data-dir>');
const DEFAULT_ON = ADMISSION_PLUGIN_ORDER.filter((name) => DEFAULT_ON_ADMISSION_PLUGINS.has(name)).join(', ');

const FLAGS: readonly FlagSpec[] = [
  { name: 'data-dir', value: 'dir', description: 'directory of the embedded store and of generated files (certificates, admin.kubeconfig)', defaultText: '$XDG_DATA_HOME/capstan, else ~/.local/share/capstan' },
  { name: 'secure-port', value: 'port', description: 'HTTPS port (0 picks a free port and prints it)', defaultText: String(DEFAULTS.secureServing.port) },
  { name: 'advertise-address', value: 'ip', description: 'address of this server in the kubernetes Service\'s endpoints', defaultText: '--bind-address, or the first external IPv4 when that is every interface' },
  { name: 'external-hostname', value: 'host', description: 'host in the addresses given to clients (discovery\'s serverAddressByClientCIDRs), with the secure port', defaultText: 'the address the server is reached at' },
  { name: 'bind-address', value: 'ip', description: 'listen address; 0.0.0.0 or :: means every interface', defaultText: DEFAULTS.secureServing.bindAddress },
  { name: 'cert-dir', value: 'dir', description: 'directory of the generated TLS certificates; ignored for serving when --tls-cert-file is given', defaultText: '<data-dir>/pki' },
  { name: 'tls-cert-file', value: 'file', description: 'serving certificate (CA certificates may follow it); without it one is generated into --cert-dir' },
  { name: 'tls-private-key-file', value: 'file', description: 'private key of --tls-cert-file' },
  { name: 'disable-http2-serving', description: 'serve HTTP/1.1 only', defaultText: 'false' },
  { name: 'http2-max-streams-per-connection', value: 'n', description: 'HTTP/2 streams a client may open at once on one connection; 0: the server\'s default', defaultText: '0 (1000)' },
  { name: 'tls-min-version', value: 'version', description: 'oldest TLS version served: VersionTLS10, VersionTLS11, VersionTLS12 or VersionTLS13', defaultText: 'VersionTLS12' },
  { name: 'tls-cipher-suites', value: 'suites', description: 'TLS 1.2 cipher suites served, by Go\'s names (TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, ...); TLS 1.3 always offers its three', defaultText: 'OpenSSL\'s defaults', repeatable: true },
  { name: 'client-ca-file', value: 'file', description: 'CA bundle whose client certificates authenticate (CN = user, O = groups), besides the generated cluster CA' },
  { name: 'token-auth-file', value: 'file', description: 'bearer tokens, a CSV line each: token,user name,user uid[,"group1,group2"]' },
  { name: 'service-account-issuer', value: 'url', description: 'issuer of service account tokens (the iss claim); repeated, the first signs and all are accepted', defaultText: DEFAULT_SERVICE_ACCOUNT_ISSUER, repeatable: true },
  { name: 'service-account-signing-key-file', value: 'file', description: 'PEM private key (RSA or ECDSA) that signs service account tokens', defaultText: '<cert-dir>/sa.key, generated' },
  { name: 'service-account-key-file', value: 'file', description: 'PEM file of public keys (or private keys, or certificates) that verify service account tokens, besides the signing key', repeatable: true },
  { name: 'service-account-jwks-uri', value: 'uri', description: 'key set URI named by /.well-known/openid-configuration', defaultText: 'https://<server address>/openid/v1/jwks' },
  { name: 'api-audiences', value: 'audiences', description: 'audiences a token must be meant for; a TokenRequest without audiences gets them', defaultText: 'the first --service-account-issuer', repeatable: true },
  { name: 'service-account-max-token-expiration', value: 'duration', description: 'longest validity a TokenRequest gets; 0: no cap', defaultText: '0' },
  { name: 'service-account-lookup', description: 'a service account token is valid only while its account (and bound object) exists', defaultText: 'true' },
  { name: 'service-account-extend-token-expiration', description: 'accepted for compatibility; Capstan injects no tokens into pods', defaultText: 'true' },
  { name: 'authentication-token-webhook-config-file', value: 'file', description: 'kubeconfig of the server that answers TokenReviews for bearer tokens no other authenticator knows' },
  { name: 'authentication-token-webhook-version', value: 'version', description: 'version of the TokenReview sent to the webhook: v1beta1 or v1', defaultText: DEFAULTS.authentication.tokenWebhook.version },
  { name: 'authentication-token-webhook-cache-ttl', value: 'duration', description: 'how long the webhook\'s answers are cached', defaultText: formatDuration(DEFAULTS.authentication.tokenWebhook.cacheTtlMs) },
  { name: 'enable-bootstrap-token-auth', description: 'bootstrap tokens (<id>.<secret>, Secrets bootstrap-token-<id> of type bootstrap.kubernetes.io/token in kube-system) authenticate', defaultText: 'false' },
  { name: 'requestheader-client-ca-file', value: 'file', description: 'CA bundle of the front proxies whose client certificates let them name the user in request headers' },
  { name: 'requestheader-allowed-names', value: 'names', description: 'common names a front proxy\'s certificate may have; none: any the CA signed', repeatable: true },
  { name: 'requestheader-username-headers', value: 'headers', description: 'headers that name the user, the first present wins (X-Remote-User)', repeatable: true },
  { name: 'requestheader-uid-headers', value: 'headers', description: 'headers that give the user\'s UID (X-Remote-Uid)', repeatable: true },
  { name: 'requestheader-group-headers', value: 'headers', description: 'headers whose values are the user\'s groups (X-Remote-Group)', repeatable: true },
  { name: 'requestheader-extra-headers-prefix', value: 'prefixes', description: 'header prefixes of the user\'s extra attributes (X-Remote-Extra-)', repeatable: true },
  { name: 'authentication-config', value: 'file', description: 'AuthenticationConfiguration (apiserver.config.k8s.io) whose jwt issuers authenticate; claim forms only, no CEL; exclusive with --oidc-*' },
  { name: 'oidc-issuer-url', value: 'url', description: 'https URL of the OpenID Connect issuer whose ID tokens authenticate' },
  { name: 'oidc-client-id', value: 'id', description: 'the audience an ID token must have; required with --oidc-issuer-url' },
  { name: 'oidc-ca-file', value: 'file', description: 'CA bundle for the issuer\'s discovery document and keys', defaultText: 'the system\'s CAs' },
  { name: 'oidc-username-claim', value: 'claim', description: 'claim that names the user', defaultText: 'sub' },
  { name: 'oidc-username-prefix', value: 'prefix', description: 'prefix of user names; - for none', defaultText: '<issuer URL># except for email' },
  { name: 'oidc-groups-claim', value: 'claim', description: 'claim (a string or a list) that names the user\'s groups' },
  { name: 'oidc-groups-prefix', value: 'prefix', description: 'prefix of group names' },
  { name: 'oidc-required-claim', value: 'key=value', description: 'a claim an ID token must carry with that value', repeatable: true },
  { name: 'oidc-signing-algs', value: 'algorithms', description: 'accepted signing algorithms: RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512', defaultText: 'RS256', repeatable: true },
  { name: 'anonymous-auth', description: 'serve requests without credentials as system:anonymous', defaultText: 'true' },
  { name: 'authorization-mode', value: 'modes', description: 'ordered authorization modes; implemented: AlwaysAllow, AlwaysDeny, ABAC, Webhook, RBAC (Node not yet)', defaultText: 'AlwaysAllow', repeatable: true },
  { name: 'authorization-policy-file', value: 'file', description: 'ABAC\'s policies, one JSON object a line; used with --authorization-mode=ABAC' },
  { name: 'authorization-webhook-config-file', value: 'file', description: 'kubeconfig of the server that answers SubjectAccessReviews; used with --authorization-mode=Webhook' },
  { name: 'authorization-webhook-version', value: 'version', description: 'version of the SubjectAccessReview sent to the webhook: v1beta1 or v1', defaultText: DEFAULTS.authorization.webhook.version },
  { name: 'authorization-webhook-cache-authorized-ttl', value: 'duration', description: 'how long the webhook\'s allowed answers are cached', defaultText: formatDuration(DEFAULTS.authorization.webhook.cacheAuthorizedTtlMs) },
  { name: 'authorization-webhook-cache-unauthorized-ttl', value: 'duration', description: 'how long the webhook\'s other answers are cached', defaultText: formatDuration(DEFAULTS.authorization.webhook.cacheUnauthorizedTtlMs) },
  { name: 'enable-admission-plugins', value: 'plugins', description: `admission plugins run besides the default ones (${DEFAULT_ON}); known: ${ADMISSION_PLUGIN_ORDER.join(', ')}; Capstan's behaviour changes only for ${HONOURED_ADMISSION_PLUGINS.join(', ')}`, repeatable: true },
  { name: 'disable-admission-plugins', value: 'plugins', description: 'default admission plugins not to run (see --enable-admission-plugins)', repeatable: true },
  { name: 'admission-control-config-file', value: 'file', description: 'AdmissionConfiguration file (apiserver.config.k8s.io/v1): settings of the admission plugins' },
  { name: 'store-servers', alias: 'etcd-servers', value: 'urls', description: 'etcd servers (scheme://ip:port, comma-separated); none: the embedded store in --data-dir', repeatable: true },
  { name: 'store-prefix', alias: 'etcd-prefix', value: 'prefix', description: 'key prefix of every resource in the store', defaultText: DEFAULTS.store.prefix },
  { name: 'store-cafile', alias: 'etcd-cafile', value: 'file', description: 'CA bundle for the store connection' },
  { name: 'store-certfile', alias: 'etcd-certfile', value: 'file', description: 'client certificate for the store connection' },
  { name: 'store-keyfile', alias: 'etcd-keyfile', value: 'file', description: 'client key for the store connection' },
  { name: 'store-healthcheck-timeout', alias: 'etcd-healthcheck-timeout', value: 'duration', description: 'timeout of the store health check', defaultText: formatDuration(DEFAULTS.store.healthcheckTimeoutMs) },
  { name: 'store-readycheck-timeout', alias: 'etcd-readycheck-timeout', value: 'duration', description: 'timeout of the store readiness check', defaultText: formatDuration(DEFAULTS.store.readycheckTimeoutMs) },
  { name: 'store-compaction-interval', alias: 'etcd-compaction-interval', value: 'duration', description: 'interval of compaction requests; 0 disables', defaultText: formatDuration(DEFAULTS.store.compactionIntervalMs) },
  { name: 'service-cluster-ip-range', value: 'cidrs', description: 'CIDR of Service IPs; two for dual-stack', defaultText: DEFAULTS.services.clusterIpRanges.join(',') },
  { name: 'service-node-port-range', value: 'range', description: 'NodePort range, inclusive', defaultText: `${DEFAULTS.services.nodePortRange.min}-${DEFAULTS.services.nodePortRange.max}` },
  { name: 'request-timeout', value: 'duration', description: 'timeout of requests other than watches and other long-running ones', defaultText: formatDuration(DEFAULTS.limits.requestTimeoutMs) },
  { name: 'min-request-timeout', value: 'seconds', description: 'watches end after a random time between this and twice this', defaultText: String(DEFAULTS.limits.minRequestTimeoutSeconds) },
  { name: 'max-requests-inflight', value: 'n', description: 'read requests served at once; 0 means no limit', defaultText: String(DEFAULTS.limits.maxRequestsInflight) },
  { name: 'max-mutating-requests-inflight', value: 'n', description: 'mutating requests served at once; 0 means no limit', defaultText: String(DEFAULTS.limits.maxMutatingRequestsInflight) },
  { name: 'goaway-chance', value: 'fraction', description: 'share of HTTP/2 requests after which the connection is sent GOAWAY, so that clients reconnect, maybe to another server behind a load balancer; at most 0.02', defaultText: '0' },
  { name: 'cors-allowed-origins', value: 'regexps', description: 'origins whose browser requests get CORS headers: Go regular expressions, each pinned to the host\'s start (^ or //) and end ($ or :), e.g. //example\\.com(:|$); none: no CORS', repeatable: true },
  { name: 'strict-transport-security-directives', value: 'directives', description: 'directives of a Strict-Transport-Security header on every response (max-age=N, includeSubDomains, preload); none: no header', repeatable: true },
  { name: 'shutdown-delay-duration', value: 'duration', description: 'on SIGTERM, keep serving this long with /readyz failing before stopping', defaultText: formatDuration(DEFAULTS.shutdownDelayMs) },
  { name: 'livez-grace-period', value: 'duration', description: 'how long after startup /livez passes while post-start hooks have not finished', defaultText: '0s' },
  { name: 'shutdown-send-retry-after', description: 'when stopping, keep the port open until in-flight requests finish, answering new ones 429 with Retry-After', defaultText: 'false' },
  { name: 'default-not-ready-toleration-seconds', value: 'seconds', description: 'tolerationSeconds of the not-ready toleration added to pods without one', defaultText: String(DEFAULTS.defaultTolerationSeconds.notReady) },
  { name: 'default-unreachable-toleration-seconds', value: 'seconds', description: 'tolerationSeconds of the unreachable toleration added to pods without one', defaultText: String(DEFAULTS.defaultTolerationSeconds.unreachable) },
  { name: 'delete-collection-workers', value: 'n', description: 'objects a deletecollection deletes at once', defaultText: String(DEFAULTS.deleteCollectionWorkers) },
  { name: 'allow-privileged', description: 'let containers (of pods and pod templates) run privileged', defaultText: 'false' },
  { name: 'profiling', description: 'serve CPU and heap profiles at /debug/pprof/ (pprof format) and -v at /debug/flags/v, to users the authorizer lets in', defaultText: 'true' },
  { name: 'debug-socket-path', value: 'path', description: 'also serve /debug/pprof/ and /debug/flags/v on this unix socket, without authentication (whatever --profiling says)' },
  { name: 'feature-gates', value: 'Name=bool,...', description: 'feature gates', repeatable: true },
  { name: 'logging-format', value: 'format', description: 'log format; only text', defaultText: 'text' },
  { name: 'log-flush-frequency', value: 'duration', description: 'longest a log line waits to be written (Capstan writes each at once)', defaultText: '5s' },
  ...AUDIT_FLAGS,
  { name: 'v', short: 'v', value: 'level', description: 'log verbosity', defaultText: '0' },
  { name: 'version', description: 'print the version and exit (=raw: every field; =vX.Y.Z: report that version)' },
];

/**
 * Parses the arguments (without node and script). Throws {@link FlagError} with a one-line
 * message for unknown flags, missing or malformed values.
 */
export function parseFlags(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliCommand {
  const program = buildProgram();
  let out = '';
  program.configureOutput({ writeOut: (s) => (out += s), writeErr: () => {}, outputError: () => {} });
  try {
    program.parse(normalizeShortFlags(argv), { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError && err.code === 'commander.helpDisplayed') return { action: 'print', text: out };
    if (err instanceof CommanderError) throw new FlagError(err.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' '));
    throw err;
  }
  const flags = new FlagValues(collectRaw(program));
  const version = flags.string('version');
  if (version !== undefined && version !== 'false') {
    const text = versionText(version);
    if (text !== undefined) return { action: 'print', text };
  }
  return { action: 'serve', options: toOptions(flags, env, version) };
}

function buildProgram(): Command {
  const program = new Command('capstan')
    .description('A Kubernetes-compatible API server (the v1.35 API) on an embedded store or etcd.')
    .usage('[flags]')
    .allowExcessArguments(false)
    .exitOverride()
    .helpOption('-h, --help', 'show this help')
    .addHelpText('after', '\nWith no flags, state lives in --data-dir; the first start generates a CA, certificates and\n<data-dir>/admin.kubeconfig, and prints the kubectl command to use.\n');
  for (const spec of FLAGS) {
    const placeholder = spec.value ? ` <${spec.value}>` : ' [value]';
    const head = spec.short ? `-${spec.short}, --${spec.name}` : `--${spec.name}`;
    const option = new Option(head + placeholder, spec.description + (spec.alias ? ` (also --${spec.alias})` : ''));
    // Only flags given on the command line are read (collectRaw); the default here is for --help.
    if (spec.defaultText !== undefined) option.default(spec.defaultText, spec.defaultText);
    if (spec.repeatable) option.argParser(appendValue);
    program.addOption(option);
    if (spec.alias) {
      const alias = new Option(`--${spec.alias}${placeholder}`).hideHelp();
      if (spec.repeatable) alias.argParser(appendValue);
      program.addOption(alias);
    }
  }
  return program;
}

/** Collects a repeated flag; the first occurrence replaces the (help-only) default. */
function appendValue(value: string, previous: unknown): string[] {
  return Array.isArray(previous) ? [...(previous as string[]), value] : [value];
}

/** pflag accepts `-v=4`; commander reads that as the value "=4". */
function normalizeShortFlags(argv: readonly string[]): string[] {
  return argv.map((arg) => (/^-[a-zA-Z]=/.test(arg) ? arg.slice(0, 2) + arg.slice(3) : arg));
}

/** The flags given on the command line, keyed by canonical name; refuses a flag given under both spellings. */
function collectRaw(program: Command): Map<string, RawFlag> {
  const values = program.opts<Record<string, string | string[] | true | undefined>>();
  const raw = new Map<string, RawFlag>();
  for (const spec of FLAGS) {
    for (const spelling of [spec.name, spec.alias].filter((s): s is string => s !== undefined)) {
      const key = camelCase(spelling);
      if (program.getOptionValueSource(key) !== 'cli') continue;
      if (raw.has(spec.name)) throw new FlagError(`--${spec.name} and --${spec.alias} are the same flag; give only one`);
      // pflag names a flag with a shorthand by both in its errors: "-v, --v".
      raw.set(spec.name, { spelling: spec.short ? `-${spec.short}, --${spelling}` : `--${spelling}`, value: values[key]! });
    }
  }
  return raw;
}

function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** What --version prints, or undefined when its value sets the reported version instead. */
function versionText(value: string): string | undefined {
  const info = versionInfo(KUBERNETES_VERSION);
  if (value === '' || value === 'true') return `Kubernetes ${info.gitVersion}\n`;
  if (value !== 'raw') return undefined;
  // Go's %#v of version.Info, as upstream prints it.
  const fields = Object.entries(info).map(([k, v]) => `${k[0]!.toUpperCase()}${k.slice(1)}:${JSON.stringify(v)}`);
  return `version.Info{${fields.join(', ')}}\n`;
}

function toOptions(flags: FlagValues, env: NodeJS.ProcessEnv, version: string | undefined): ServerOptions {
  const dataDir = resolve(flags.string('data-dir') || defaultDataDir(env));
  const d = defaultServerOptions(dataDir);
  return {
    dataDir,
    secureServing: {
      bindAddress: flags.ip('bind-address') ?? d.secureServing.bindAddress,
      advertiseAddress: flags.ip('advertise-address') || undefined,
      externalHostname: flags.string('external-hostname') || undefined,
      port: flags.int('secure-port') ?? d.secureServing.port,
      certDir: resolve(flags.string('cert-dir') || join(dataDir, 'pki')),
      tlsCertFile: flags.string('tls-cert-file') || undefined,
      tlsPrivateKeyFile: flags.string('tls-private-key-file') || undefined,
      disableHttp2: flags.bool('disable-http2-serving') ?? d.secureServing.disableHttp2,
      http2MaxStreamsPerConnection: flags.int('http2-max-streams-per-connection') ?? d.secureServing.http2MaxStreamsPerConnection,
      tlsMinVersion: flags.string('tls-min-version') || undefined,
      tlsCipherSuites: flags.stringSlice('tls-cipher-suites') ?? d.secureServing.tlsCipherSuites,
    },
    authentication: {
      anonymous: flags.bool('anonymous-auth') ?? d.authentication.anonymous,
      clientCaFile: flags.string('client-ca-file') || undefined,
      tokenAuthFile: flags.string('token-auth-file') || undefined,
      bootstrapTokens: flags.bool('enable-bootstrap-token-auth') ?? d.authentication.bootstrapTokens,
      configFile: flags.string('authentication-config') || undefined,
      oidc: {
        issuerUrl: flags.string('oidc-issuer-url') || undefined,
        clientId: flags.string('oidc-client-id') || undefined,
        caFile: flags.string('oidc-ca-file') || undefined,
        usernameClaim: flags.string('oidc-username-claim') || d.authentication.oidc.usernameClaim,
        usernamePrefix: flags.string('oidc-username-prefix') || undefined,
        groupsClaim: flags.string('oidc-groups-claim') || undefined,
        groupsPrefix: flags.string('oidc-groups-prefix') ?? d.authentication.oidc.groupsPrefix,
        requiredClaims: Object.fromEntries((flags.list('oidc-required-claim') ?? []).map((pair) => [pair.split('=')[0]!, pair.slice(pair.indexOf('=') + 1)])),
        signingAlgorithms: flags.stringSlice('oidc-signing-algs') ?? d.authentication.oidc.signingAlgorithms,
      },
      requestHeader: {
        clientCaFile: flags.string('requestheader-client-ca-file') || undefined,
        allowedNames: flags.stringSlice('requestheader-allowed-names') ?? d.authentication.requestHeader.allowedNames,
        usernameHeaders: flags.stringSlice('requestheader-username-headers') ?? d.authentication.requestHeader.usernameHeaders,
        uidHeaders: flags.stringSlice('requestheader-uid-headers') ?? d.authentication.requestHeader.uidHeaders,
        groupHeaders: flags.stringSlice('requestheader-group-headers') ?? d.authentication.requestHeader.groupHeaders,
        extraHeadersPrefixes: flags.stringSlice('requestheader-extra-headers-prefix') ?? d.authentication.requestHeader.extraHeadersPrefixes,
      },
      tokenWebhook: {
        configFile: flags.string('authentication-token-webhook-config-file') || undefined,
        version: flags.string('authentication-token-webhook-version') ?? d.authentication.tokenWebhook.version,
        cacheTtlMs: flags.duration('authentication-token-webhook-cache-ttl') ?? d.authentication.tokenWebhook.cacheTtlMs,
      },
      serviceAccounts: {
        issuers: flags.stringArray('service-account-issuer') ?? d.authentication.serviceAccounts.issuers,
        keyFiles: flags.stringArray('service-account-key-file') ?? d.authentication.serviceAccounts.keyFiles,
        signingKeyFile: flags.string('service-account-signing-key-file') || undefined,
        jwksUri: flags.string('service-account-jwks-uri') || undefined,
        apiAudiences: flags.stringSlice('api-audiences') ?? d.authentication.serviceAccounts.apiAudiences,
        maxTokenExpirationMs: flags.duration('service-account-max-token-expiration') ?? d.authentication.serviceAccounts.maxTokenExpirationMs,
        lookup: flags.bool('service-account-lookup') ?? d.authentication.serviceAccounts.lookup,
        extendTokenExpiration: flags.bool('service-account-extend-token-expiration') ?? d.authentication.serviceAccounts.extendTokenExpiration,
      },
    },
    authorization: {
      modes: flags.list('authorization-mode') ?? d.authorization.modes,
      policyFile: flags.string('authorization-policy-file') || undefined,
      webhook: {
        configFile: flags.string('authorization-webhook-config-file') || undefined,
        version: flags.string('authorization-webhook-version') ?? d.authorization.webhook.version,
        cacheAuthorizedTtlMs: flags.duration('authorization-webhook-cache-authorized-ttl') ?? d.authorization.webhook.cacheAuthorizedTtlMs,
        cacheUnauthorizedTtlMs: flags.duration('authorization-webhook-cache-unauthorized-ttl') ?? d.authorization.webhook.cacheUnauthorizedTtlMs,
      },
    },
    admission: {
      enablePlugins: flags.stringSlice('enable-admission-plugins') ?? d.admission.enablePlugins,
      disablePlugins: flags.stringSlice('disable-admission-plugins') ?? d.admission.disablePlugins,
      configFile: flags.string('admission-control-config-file') || undefined,
    },
    store: {
      servers: flags.list('store-servers') ?? d.store.servers,
      prefix: flags.string('store-prefix') ?? d.store.prefix,
      caFile: flags.string('store-cafile') || undefined,
      certFile: flags.string('store-certfile') || undefined,
      keyFile: flags.string('store-keyfile') || undefined,
      healthcheckTimeoutMs: flags.duration('store-healthcheck-timeout') ?? d.store.healthcheckTimeoutMs,
      readycheckTimeoutMs: flags.duration('store-readycheck-timeout') ?? d.store.readycheckTimeoutMs,
      compactionIntervalMs: flags.duration('store-compaction-interval') ?? d.store.compactionIntervalMs,
    },
    limits: {
      requestTimeoutMs: flags.duration('request-timeout') ?? d.limits.requestTimeoutMs,
      minRequestTimeoutSeconds: flags.int('min-request-timeout') ?? d.limits.minRequestTimeoutSeconds,
      maxRequestsInflight: flags.int('max-requests-inflight') ?? d.limits.maxRequestsInflight,
      maxMutatingRequestsInflight: flags.int('max-mutating-requests-inflight') ?? d.limits.maxMutatingRequestsInflight,
    },
    services: {
      clusterIpRanges: flags.cidrs('service-cluster-ip-range') ?? d.services.clusterIpRanges,
      nodePortRange: flags.portRange('service-node-port-range') ?? d.services.nodePortRange,
    },
    goawayChance: flags.float64('goaway-chance') ?? d.goawayChance,
    corsAllowedOrigins: flags.stringSlice('cors-allowed-origins') ?? d.corsAllowedOrigins,
    hstsDirectives: flags.stringSlice('strict-transport-security-directives') ?? d.hstsDirectives,
    livezGracePeriodMs: flags.duration('livez-grace-period') ?? d.livezGracePeriodMs,
    shutdownDelayMs: flags.duration('shutdown-delay-duration') ?? d.shutdownDelayMs,
    shutdownSendRetryAfter: flags.bool('shutdown-send-retry-after') ?? d.shutdownSendRetryAfter,
    allowPrivileged: flags.bool('allow-privileged') ?? d.allowPrivileged,
    profiling: flags.bool('profiling') ?? d.profiling,
    ...(flags.string('debug-socket-path') ? { debugSocketPath: resolve(flags.string('debug-socket-path')!) } : {}),
    defaultTolerationSeconds: {
      notReady: flags.goFlagInt64('default-not-ready-toleration-seconds') ?? d.defaultTolerationSeconds.notReady,
      unreachable: flags.goFlagInt64('default-unreachable-toleration-seconds') ?? d.defaultTolerationSeconds.unreachable,
    },
    deleteCollectionWorkers: flags.int('delete-collection-workers') ?? d.deleteCollectionWorkers,
    featureGates: flags.featureGates('feature-gates') ?? d.featureGates,
    verbosity: flags.uint('v', 31) ?? d.verbosity,
    loggingFormat: flags.string('logging-format') ?? d.loggingFormat,
    logFlushFrequencyMs: flags.duration('log-flush-frequency') ?? d.logFlushFrequencyMs,
    audit: auditOptionsFrom(flags),
    version: { gitVersion: version !== undefined && version !== 'false' ? version : d.version.gitVersion },
  };
}
