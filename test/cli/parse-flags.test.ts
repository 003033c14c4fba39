import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFlags } from '../../src/cli/parse-flags.js';
import { validateOptions } from '../../src/cli/validate-options.js';
import { FlagError } from '../../src/cli/flag-values.js';
import type { ServerOptions } from '../../src/cli/options.js';
import { MAIN } from '../e2e/harness.js';

function serve(argv: string[], env: NodeJS.ProcessEnv = { HOME: '/home/u' }): ServerOptions {
  const command = parseFlags(argv, env);
  assert.equal(command.action, 'serve');
  return (command as { options: ServerOptions }).options;
}

describe('parseFlags', () => {
  it('uses upstream defaults and the XDG data directory', () => {
    const o = serve([], { HOME: '/home/u' });
    assert.equal(o.dataDir, '/home/u/.local/share/capstan');
    assert.equal(o.secureServing.port, 6443);
    assert.equal(o.secureServing.bindAddress, '0.0.0.0');
    assert.equal(o.secureServing.certDir, '/home/u/.local/share/capstan/pki');
    assert.equal(o.authentication.anonymous, true);
    assert.deepEqual(o.authorization.modes, ['AlwaysAllow']);
    assert.equal(o.store.prefix, '/registry');
    assert.equal(o.store.healthcheckTimeoutMs, 2000);
    assert.equal(o.store.compactionIntervalMs, 300_000);
    assert.deepEqual(o.services.clusterIpRanges, ['10.0.0.0/24']);
    assert.deepEqual(o.services.nodePortRange, { min: 30000, max: 32767 });
    assert.equal(o.limits.requestTimeoutMs, 60_000);
    assert.equal(o.limits.minRequestTimeoutSeconds, 1800);
    assert.equal(o.limits.maxRequestsInflight, 400);
    assert.equal(o.limits.maxMutatingRequestsInflight, 200);
    assert.equal(o.version.gitVersion, 'v1.35.0');
    assert.equal(o.allowPrivileged, false);
    assert.equal(o.profiling, true);
    assert.equal(o.debugSocketPath, undefined);
    assert.deepEqual(o.defaultTolerationSeconds, { notReady: 300, unreachable: 300 });
    assert.equal(o.deleteCollectionWorkers, 1);
    assert.equal(serve([], { XDG_DATA_HOME: '/xdg', HOME: '/home/u' }).dataDir, '/xdg/capstan');
  });

  const good: Array<{ name: string; argv: string[]; check: (o: ServerOptions) => void }> = [
    { name: 'port and address', argv: ['--secure-port', '7443', '--bind-address=127.0.0.1'], check: (o) => (assert.equal(o.secureServing.port, 7443), assert.equal(o.secureServing.bindAddress, '127.0.0.1')) },
    { name: 'data dir sets cert dir', argv: ['--data-dir', '/d'], check: (o) => (assert.equal(o.dataDir, '/d'), assert.equal(o.secureServing.certDir, '/d/pki')) },
    { name: 'explicit cert dir', argv: ['--data-dir', '/d', '--cert-dir', '/certs'], check: (o) => assert.equal(o.secureServing.certDir, '/certs') },
    { name: 'bool flag alone', argv: ['--anonymous-auth'], check: (o) => assert.equal(o.authentication.anonymous, true) },
    { name: 'bool flag =false', argv: ['--anonymous-auth=false'], check: (o) => assert.equal(o.authentication.anonymous, false) },
    { name: 'bool flag =0', argv: ['--anonymous-auth=0'], check: (o) => assert.equal(o.authentication.anonymous, false) },
    { name: 'allow privileged', argv: ['--allow-privileged'], check: (o) => assert.equal(o.allowPrivileged, true) },
    { name: 'profiling off', argv: ['--profiling=false'], check: (o) => assert.equal(o.profiling, false) },
    { name: 'debug socket path, made absolute', argv: ['--debug-socket-path', 'run/debug.sock'], check: (o) => assert.equal(o.debugSocketPath, resolve('run/debug.sock')) },
    { name: 'advertise address', argv: ['--advertise-address=10.1.2.3'], check: (o) => assert.equal(o.secureServing.advertiseAddress, '10.1.2.3') },
    {
      name: 'toleration seconds and delete workers',
      argv: ['--default-not-ready-toleration-seconds=60', '--default-unreachable-toleration-seconds', '0', '--delete-collection-workers=4'],
      check: (o) => (assert.deepEqual(o.defaultTolerationSeconds, { notReady: 60, unreachable: 0 }), assert.equal(o.deleteCollectionWorkers, 4)),
    },
    { name: 'go durations', argv: ['--request-timeout', '1m30s', '--store-healthcheck-timeout=300ms', '--shutdown-delay-duration', '2h'], check: (o) => (assert.equal(o.limits.requestTimeoutMs, 90_000), assert.equal(o.store.healthcheckTimeoutMs, 300), assert.equal(o.shutdownDelayMs, 7_200_000)) },
    { name: 'etcd spelling', argv: ['--etcd-servers', 'https://a:2379,https://b:2379', '--etcd-prefix=/x'], check: (o) => (assert.deepEqual(o.store.servers, ['https://a:2379', 'https://b:2379']), assert.equal(o.store.prefix, '/x')) },
    { name: 'repeated store servers', argv: ['--store-servers', 'https://a:2379', '--store-servers', 'https://b:2379'], check: (o) => assert.deepEqual(o.store.servers, ['https://a:2379', 'https://b:2379']) },
    { name: 'authorization modes', argv: ['--authorization-mode', 'AlwaysDeny,AlwaysAllow'], check: (o) => assert.deepEqual(o.authorization.modes, ['AlwaysDeny', 'AlwaysAllow']) },
    {
      name: 'webhook defaults',
      argv: ['--authorization-mode', 'Webhook', '--authorization-webhook-config-file', '/k'],
      check: (o) => assert.deepEqual(o.authorization.webhook, { configFile: '/k', version: 'v1beta1', cacheAuthorizedTtlMs: 300_000, cacheUnauthorizedTtlMs: 30_000 }),
    },
    {
      name: 'webhook version and cache times as Go durations',
      argv: ['--authorization-webhook-version=v1', '--authorization-webhook-cache-authorized-ttl', '1m30s', '--authorization-webhook-cache-unauthorized-ttl=0'],
      check: (o) => assert.deepEqual(o.authorization.webhook, { configFile: undefined, version: 'v1', cacheAuthorizedTtlMs: 90_000, cacheUnauthorizedTtlMs: 0 }),
    },
    {
      name: 'admission plugins as string slices, repeatable, and the configuration file',
      argv: ['--enable-admission-plugins', 'NamespaceExists,AlwaysDeny', '--enable-admission-plugins=NamespaceAutoProvision', '--disable-admission-plugins', 'NamespaceLifecycle', '--admission-control-config-file=/a.yaml'],
      check: (o) => assert.deepEqual(o.admission, { enablePlugins: ['NamespaceExists', 'AlwaysDeny', 'NamespaceAutoProvision'], disablePlugins: ['NamespaceLifecycle'], configFile: '/a.yaml' }),
    },
    { name: 'no admission flags', argv: [], check: (o) => assert.deepEqual(o.admission, { enablePlugins: [], disablePlugins: [], configFile: undefined }) },
    { name: 'ABAC and its policy file', argv: ['--authorization-mode', 'ABAC', '--authorization-policy-file=/p.jsonl'], check: (o) => assert.deepEqual([o.authorization.modes, o.authorization.policyFile], [['ABAC'], '/p.jsonl']) },
    { name: 'node port range N+M', argv: ['--service-node-port-range', '30000+100'], check: (o) => assert.deepEqual(o.services.nodePortRange, { min: 30000, max: 30100 }) },
    { name: 'dual-stack services', argv: ['--service-cluster-ip-range', '10.96.0.0/16,fd00::/108'], check: (o) => assert.deepEqual(o.services.clusterIpRanges, ['10.96.0.0/16', 'fd00::/108']) },
    { name: 'feature gates', argv: ['--feature-gates', 'A=true,B=false', '--feature-gates=C=1'], check: (o) => assert.deepEqual(o.featureGates, { A: true, B: false, C: true }) },
    { name: 'verbosity -v=4', argv: ['-v=4'], check: (o) => assert.equal(o.verbosity, 4) },
    { name: 'verbosity --v 2', argv: ['--v', '2'], check: (o) => assert.equal(o.verbosity, 2) },
    // pflag reads int flags with strconv.ParseInt(s, 0, 64): Go's literal syntax.
    { name: 'Go integer literals', argv: ['--secure-port', '0x1A0B', '--max-requests-inflight=0o17', '--min-request-timeout', '1_800', '--max-mutating-requests-inflight=017'], check: (o) => (assert.equal(o.secureServing.port, 6667), assert.equal(o.limits.maxRequestsInflight, 15), assert.equal(o.limits.minRequestTimeoutSeconds, 1800), assert.equal(o.limits.maxMutatingRequestsInflight, 15)) },
    // Upstream takes any int64 here (a negative toleration means "evict at once") and any worker count (below 1 runs one).
    // pflag reads a string slice as CSV: fields as given, repeats appended, an empty value adds none.
    { name: 'HSTS directives', argv: ['--strict-transport-security-directives', 'max-age=31536000,includeSubDomains', '--strict-transport-security-directives=preload', '--strict-transport-security-directives='], check: (o) => assert.deepEqual(o.hstsDirectives, ['max-age=31536000', 'includeSubDomains', 'preload']) },
    { name: 'no HSTS by default', argv: [], check: (o) => (assert.deepEqual(o.hstsDirectives, []), assert.deepEqual(o.corsAllowedOrigins, [])) },
    { name: 'CORS origins', argv: ['--cors-allowed-origins', '//a\\.example(:|$),^https://b\\.example$'], check: (o) => assert.deepEqual(o.corsAllowedOrigins, ['//a\\.example(:|$)', '^https://b\\.example$']) },
    { name: 'TLS choices', argv: ['--tls-min-version=VersionTLS13', '--tls-cipher-suites', 'TLS_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256'], check: (o) => (assert.equal(o.secureServing.tlsMinVersion, 'VersionTLS13'), assert.deepEqual(o.secureServing.tlsCipherSuites, ['TLS_AES_128_GCM_SHA256', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256'])) },
    { name: 'logging flags', argv: ['--logging-format=text', '--log-flush-frequency', '10s'], check: (o) => (assert.equal(o.loggingFormat, 'text'), assert.equal(o.logFlushFrequencyMs, 10_000)) },
    { name: 'livez grace', argv: ['--livez-grace-period=90s'], check: (o) => assert.equal(o.livezGracePeriodMs, 90_000) },
    { name: 'retry-after while stopping', argv: ['--shutdown-send-retry-after'], check: (o) => assert.equal(o.shutdownSendRetryAfter, true) },
    { name: 'GOAWAY chance', argv: ['--goaway-chance', '.02'], check: (o) => assert.equal(o.goawayChance, 0.02) },
    { name: 'HTTP/2 serving flags', argv: ['--disable-http2-serving', '--http2-max-streams-per-connection=0x10'], check: (o) => (assert.equal(o.secureServing.disableHttp2, true), assert.equal(o.secureServing.http2MaxStreamsPerConnection, 16)) },
    { name: 'negative toleration seconds, no delete workers', argv: ['--default-not-ready-toleration-seconds=-1', '--delete-collection-workers=0'], check: (o) => (assert.equal(o.defaultTolerationSeconds.notReady, -1), assert.equal(o.deleteCollectionWorkers, 0)) },
    { name: 'version override', argv: ['--version=v1.35.3'], check: (o) => assert.equal(o.version.gitVersion, 'v1.35.3') },
    { name: 'external host name', argv: ['--external-hostname', 'api.example.test'], check: (o) => assert.equal(o.secureServing.externalHostname, 'api.example.test') },
    { name: 'audit off by default', argv: [], check: (o) => (assert.equal(o.audit.policyFile, undefined), assert.equal(o.audit.log.path, undefined), assert.equal(o.audit.webhook.configFile, undefined)) },
    {
      name: 'audit log flags',
      argv: ['--audit-policy-file=/p.yaml', '--audit-log-path', '-', '--audit-log-format=legacy', '--audit-log-version', 'audit.k8s.io/v1', '--audit-log-maxage=7', '--audit-log-maxbackup', '3', '--audit-log-maxsize=100', '--audit-log-compress', '--audit-log-mode=batch', '--audit-log-batch-max-wait', '5s', '--audit-log-batch-throttle-enable', '--audit-log-batch-throttle-qps=2.5', '--audit-log-batch-throttle-burst=4', '--audit-log-truncate-enabled', '--audit-log-truncate-max-event-size', '2048'],
      check: (o) => {
        assert.equal(o.audit.policyFile, '/p.yaml');
        assert.deepEqual(o.audit.log, {
          path: '-', maxAgeDays: 7, maxBackups: 3, maxSizeMegabytes: 100, compress: true, format: 'legacy', version: 'audit.k8s.io/v1',
          batch: { mode: 'batch', bufferSize: 10_000, maxBatchSize: 1, maxBatchWaitMs: 5000, throttleEnable: true, throttleQps: 2.5, throttleBurst: 4 },
          truncate: { enabled: true, maxBatchSize: 10 * 1024 * 1024, maxEventSize: 2048 },
        });
      },
    },
    {
      name: 'audit webhook flags, upstream defaults and the deprecated backoff spelling',
      argv: ['--audit-webhook-config-file', '/hook.kubeconfig', '--audit-webhook-batch-initial-backoff=1s', '--audit-webhook-batch-max-size=10'],
      check: (o) => {
        assert.equal(o.audit.webhook.configFile, '/hook.kubeconfig');
        assert.equal(o.audit.webhook.initialBackoffMs, 1000);
        assert.equal(o.audit.webhook.version, 'audit.cluster.io/v1');
        assert.deepEqual(o.audit.webhook.batch, { mode: 'batch', bufferSize: 10_000, maxBatchSize: 10, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQps: 10, throttleBurst: 15 });
      },
    },
  ];
  for (const c of good) {
    it(`accepts ${c.name}`, () => {
      const o = serve(['--data-dir', '/d', ...c.argv]);
      c.check(o);
      assert.deepEqual(validateOptions(o), []);
    });
  }

  const bad: Array<{ name: string; argv: string[]; message: RegExp }> = [
    { name: 'unknown flag', argv: ['--nope'], message: /unknown option '--nope'/ },
    { name: 'non-integer port', argv: ['--secure-port', 'x'], message: /^invalid argument "x" for "--secure-port" flag: strconv\.ParseInt: parsing "x": invalid syntax$/ },
    { name: 'port past 64 bits', argv: ['--secure-port', '0x8000000000000000'], message: /^invalid argument "0x8000000000000000" for "--secure-port" flag: strconv\.ParseInt: parsing "0x8000000000000000": value out of range$/ },
    { name: 'octal digit 8', argv: ['--max-requests-inflight=08'], message: /strconv\.ParseInt: parsing "08": invalid syntax$/ },
    // Go's flag package words the errors of the flags upstream registers through it.
    { name: 'bad toleration seconds', argv: ['--default-unreachable-toleration-seconds', '5m'], message: /^invalid argument "5m" for "--default-unreachable-toleration-seconds" flag: parse error$/ },
    { name: 'toleration seconds past 64 bits', argv: ['--default-not-ready-toleration-seconds=9223372036854775808'], message: /flag: value out of range$/ },
    // The verbosity is strconv.ParseUint(s, 10, 31); pflag names a flag with a shorthand by both names.
    { name: 'negative verbosity', argv: ['--v=-1'], message: /^invalid argument "-1" for "-v, --v" flag: strconv\.ParseUint: parsing "-1": invalid syntax$/ },
    { name: 'verbosity past 31 bits', argv: ['-v', '2147483648'], message: /^invalid argument "2147483648" for "-v, --v" flag: strconv\.ParseUint: parsing "2147483648": value out of range$/ },
    { name: 'hex verbosity', argv: ['-v=0x2'], message: /strconv\.ParseUint: parsing "0x2": invalid syntax$/ },
    { name: 'a control character, quoted as Go quotes it', argv: ['--secure-port', '\u0007'], message: /^invalid argument "\\a" for "--secure-port" flag: strconv\.ParseInt: parsing "\\a": invalid syntax$/ },
    { name: 'a stray quote in a string slice', argv: ['--strict-transport-security-directives', 'max-age="1"'], message: /^invalid argument "max-age=\\"1\\"" for "--strict-transport-security-directives" flag: parse error on line 1, column 9: bare " in non-quoted-field$/ },
    { name: 'a chance that is no float', argv: ['--goaway-chance', '1%'], message: /^invalid argument "1%" for "--goaway-chance" flag: strconv\.ParseFloat: parsing "1%": invalid syntax$/ },
    { name: 'missing value', argv: ['--secure-port'], message: /--secure-port.*argument missing/ },
    { name: 'bad duration', argv: ['--request-timeout', '10'], message: /"--request-timeout" flag: time: missing unit in duration "10"/ },
    { name: 'bad bool', argv: ['--anonymous-auth=yes'], message: /"--anonymous-auth" flag/ },
    { name: 'bad IP', argv: ['--bind-address', 'localhost'], message: /"--bind-address" flag: invalid IP address/ },
    { name: 'bad advertise address', argv: ['--advertise-address', 'example.com'], message: /"--advertise-address" flag: invalid IP address/ },
    { name: 'bad CIDR', argv: ['--service-cluster-ip-range', '10.0.0.0'], message: /"--service-cluster-ip-range" flag: invalid CIDR address/ },
    { name: 'bad port range', argv: ['--service-node-port-range', '5-3'], message: /"--service-node-port-range" flag: invalid port range/ },
    { name: 'alias named as typed', argv: ['--etcd-healthcheck-timeout', 'x'], message: /"--etcd-healthcheck-timeout" flag/ },
    { name: 'both spellings', argv: ['--etcd-prefix', '/a', '--store-prefix', '/b'], message: /same flag/ },
    { name: 'positional argument', argv: ['serve'], message: /too many arguments/ },
    { name: 'feature gate without value', argv: ['--feature-gates', 'Foo'], message: /missing bool value for Foo/ },
  ];
  for (const c of bad) {
    it(`refuses ${c.name}`, () => {
      assert.throws(() => parseFlags(c.argv, {}), (err: unknown) => err instanceof FlagError && c.message.test(err.message) && !err.message.includes('\n'));
    });
  }

  it('prints help and version instead of serving', () => {
    const help = parseFlags(['--help'], {});
    assert.equal(help.action, 'print');
    assert.match((help as { text: string }).text, /--secure-port <port>.*\(default: 6443\)/);
    assert.deepEqual(parseFlags(['--version'], {}), { action: 'print', text: 'Kubernetes v1.35.0\n' });
    assert.match((parseFlags(['--version=raw'], {}) as { text: string }).text, /^version\.Info\{Major:"1", Minor:"35", /);
  });
});

describe('validateOptions', () => {
  const table: Array<{ name: string; argv: string[]; message: RegExp }> = [
    { name: 'unimplemented mode', argv: ['--authorization-mode', 'Node'], message: /--authorization-mode Node is not implemented yet/ },
    { name: 'unknown mode', argv: ['--authorization-mode', 'Magic'], message: /Magic is not a known authorization mode/ },
    { name: 'repeated mode', argv: ['--authorization-mode', 'AlwaysAllow,AlwaysAllow'], message: /more than once/ },
    { name: 'ABAC without its policy file', argv: ['--authorization-mode', 'RBAC,ABAC'], message: /^authorization-mode ABAC's authorization policy file not passed$/ },
    { name: 'policy file without ABAC', argv: ['--authorization-policy-file', '/etc/hostname'], message: /^cannot specify --authorization-policy-file without mode ABAC$/ },
    { name: 'Webhook without its config file', argv: ['--authorization-mode', 'Webhook'], message: /^authorization-mode Webhook's authorization config file not passed$/ },
    { name: 'webhook config file without Webhook', argv: ['--authorization-webhook-config-file', '/k'], message: /^cannot specify --authorization-webhook-config-file without mode Webhook$/ },
    { name: 'an unknown admission plugin to enable', argv: ['--enable-admission-plugins', 'NamespaceExists,Foo'], message: /^enable-admission-plugins plugin "Foo" is unknown$/ },
    { name: 'an unknown admission plugin to disable', argv: ['--disable-admission-plugins', 'Foo'], message: /^disable-admission-plugins plugin "Foo" is unknown$/ },
    { name: 'admission plugins both enabled and disabled', argv: ['--enable-admission-plugins', 'NamespaceLifecycle,AlwaysDeny', '--disable-admission-plugins=AlwaysDeny,NamespaceLifecycle'], message: /^\[AlwaysDeny NamespaceLifecycle\] in enable-admission-plugins and disable-admission-plugins overlapped$/ },
    { name: 'cert without key', argv: ['--tls-cert-file', '/etc/hostname'], message: /must be given together/ },
    { name: 'missing file', argv: ['--client-ca-file', '/no/such/ca.crt'], message: /--client-ca-file \/no\/such\/ca.crt: no such file/ },
    { name: 'port out of range', argv: ['--secure-port', '70000'], message: /--secure-port 70000 must be between 0 and 65535/ },
    { name: 'negative in-flight limit', argv: ['--max-requests-inflight=-1'], message: /^--max-requests-inflight can not be negative value$/ },
    { name: 'negative mutating in-flight limit', argv: ['--max-mutating-requests-inflight=-1'], message: /^--max-mutating-requests-inflight can not be negative value$/ },
    { name: 'negative minimum request timeout', argv: ['--min-request-timeout=-5'], message: /^--min-request-timeout can not be negative value$/ },
    { name: 'negative request timeout', argv: ['--request-timeout=-1s'], message: /^--request-timeout can not be negative value$/ },
    { name: 'negative shutdown delay', argv: ['--shutdown-delay-duration', '-5m'], message: /^--shutdown-delay-duration can not be negative value$/ },
    { name: 'negative compaction interval', argv: ['--etcd-compaction-interval=-1h'], message: /^--store-compaction-interval can not be negative value$/ },
    { name: 'an empty HSTS directive', argv: ['--strict-transport-security-directives', 'max-age=1, ,preload'], message: /^empty value in strict-transport-security-directives$/ },
    { name: 'an unknown HSTS directive', argv: ['--strict-transport-security-directives', 'max-age=1=2'], message: /^--strict-transport-security-directives invalid, allowed values: max-age=expireTime, includeSubDomains, preload\. see https:\/\/tools\.ietf\.org\/html\/rfc6797#section-6\.1 for more information$/ },
    { name: 'HSTS errors aggregated', argv: ['--strict-transport-security-directives', ',x,,y'], message: /^\[empty value in strict-transport-security-directives, --strict-transport-security-directives invalid, allowed values: .* for more information\]$/ },
    { name: 'an empty CORS origin', argv: ['--cors-allowed-origins', '^//a$,'], message: /^empty value in --cors-allowed-origins, help: / },
    { name: 'an unpinned CORS origin', argv: ['--cors-allowed-origins', 'example\\.com'], message: /^--cors-allowed-origins has an invalid regular expression: regular expression does not pin to start\/end of host, help: / },
    { name: 'a CORS origin that does not compile', argv: ['--cors-allowed-origins', '^//(a$'], message: /^--cors-allowed-origins has an invalid regular expression: error parsing regexp: / },
    { name: 'an unknown TLS version', argv: ['--tls-min-version', 'VersionTLS14'], message: /^unknown tls version "VersionTLS14"$/ },
    { name: 'an unknown cipher suite', argv: ['--tls-cipher-suites', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_NOPE'], message: /^Cipher suite TLS_NOPE not supported or doesn't exist$/ },
    { name: 'suites OpenSSL cannot serve', argv: ['--tls-cipher-suites', 'TLS_RSA_WITH_RC4_128_SHA'], message: /^--tls-cipher-suites: OpenSSL here serves none of TLS_RSA_WITH_RC4_128_SHA \(.*no cipher match\)$/ },
    { name: 'too high a GOAWAY chance', argv: ['--goaway-chance=0.03'], message: /^--goaway-chance can not be less than 0 or greater than 0\.02$/ },
    { name: 'a negative GOAWAY chance', argv: ['--goaway-chance=-0.01'], message: /^--goaway-chance can not be less than 0 or greater than 0\.02$/ },
    { name: 'a log format Capstan does not write', argv: ['--logging-format', 'json'], message: /^format: Invalid value: "json": Unsupported log format$/ },
    { name: 'a negative livez grace', argv: ['--livez-grace-period=-1s'], message: /^--livez-grace-period can not be a negative value$/ },
    { name: 'huge service range', argv: ['--service-cluster-ip-range', '10.0.0.0/8'], message: /too large/ },
    { name: 'same-family dual stack', argv: ['--service-cluster-ip-range', '10.0.0.0/24,10.1.0.0/24'], message: /one IPv4 and one IPv6/ },
    { name: 'store server without scheme', argv: ['--store-servers', 'localhost:2379'], message: /scheme:\/\/host:port/ },
    { name: 'bad version override', argv: ['--version=1.35'], message: /--version: version "1.35" is not of the form vX.Y.Z/ },
    { name: 'an unknown audit log mode', argv: ['--audit-log-path=/a.log', '--audit-log-mode', 'later'], message: /^invalid audit log mode later, allowed modes are "batch,blocking,blocking-strict"$/ },
    { name: 'an audit log format', argv: ['--audit-log-path=/a.log', '--audit-log-format', 'yaml'], message: /^invalid audit log format yaml, allowed formats are "json,legacy"$/ },
    { name: 'an audit version', argv: ['--audit-log-path=/a.log', '--audit-log-version', 'audit.k8s.io/v1beta1'], message: /^invalid group version, allowed versions are \["audit.cluster.io\/v1" "audit.k8s.io\/v1"\]$/ },
    { name: 'negative audit rotation', argv: ['--audit-log-path=/a.log', '--audit-log-maxage=-1', '--audit-log-maxbackup=-2', '--audit-log-maxsize=-3'], message: /^--audit-log-maxsize -3 can't be a negative number$/ },
    { name: 'an empty audit batch', argv: ['--audit-log-path=/a.log', '--audit-log-mode=batch', '--audit-log-batch-max-size=0'], message: /^invalid audit batch log max batch size 0, must be a positive number$/ },
    { name: 'a throttle without rate', argv: ['--audit-webhook-config-file=/k', '--audit-webhook-batch-throttle-qps=0'], message: /^invalid audit batch webhook throttle QPS 0, must be a positive number$/ },
    { name: 'truncation sizes out of order', argv: ['--audit-webhook-config-file=/k', '--audit-webhook-truncate-max-batch-size=10', '--audit-webhook-truncate-max-event-size=20'], message: /^invalid audit truncate webhook max batch size 10, must be greater than max event size \(20\)$/ },
  ];
  for (const c of table) {
    it(`reports ${c.name}`, () => {
      const errors = validateOptions(serve(['--data-dir', '/d', ...c.argv]));
      assert.ok(errors.some((e) => c.message.test(e)), errors.join(' | '));
    });
  }
});

describe('capstan binary', () => {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const run = (...args: string[]) => spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', env: { ...process.env, HOME: join(here, 'no-home') } });

  it('exits 1 with one clear line for a bad flag', () => {
    const r = run('--secure-port', 'abc');
    assert.equal(r.status, 1);
    assert.equal(r.stderr, 'capstan: invalid argument "abc" for "--secure-port" flag: strconv.ParseInt: parsing "abc": invalid syntax\n');
    assert.equal(r.stdout, '');
  });

  it('exits 1 for an unknown flag and for invalid combinations, without a stack trace', () => {
    for (const args of [['--bogus'], ['--authorization-mode', 'Node']]) {
      const r = run(...args);
      assert.equal(r.status, 1);
      assert.match(r.stderr, /^capstan: .+\n$/);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
  });

  it('prints the version', () => {
    const r = run('--version');
    assert.equal(r.status, 0);
    assert.equal(r.stdout, 'Kubernetes v1.35.0\n');
  });
});
