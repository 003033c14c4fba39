/**
 * The admission plugins Capstan honours, installed on the real registry as the server installs
 * them (src/app/admission-setup.ts) from --enable-admission-plugins and --disable-admission-plugins.
 * Upstream: plugin/pkg/admission/namespace/{exists,autoprovision}, plugin/pkg/admission/deny,
 * k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle.
 */
import { describe, it } from 'node:test';
import { RecordingLogger } from '../recording-logger.js';
import assert from 'node:assert/strict';
import { installAdmission, planAdmission } from '../../src/app/admission-setup.js';
import type { AdmissionOptions } from '../../src/cli/options.js';
import { CM_KEY, configMap, rejectsWith, stored, withStores, WRITE, type StoreFixture } from '../registry/store/store-fixture.js';

const USER = { name: 'alice', groups: ['system:authenticated'] };
const API_WRITE = { ...WRITE, user: USER };
const DENIED = 'admission control is denying all modifications';

function install(f: StoreFixture, options: Partial<AdmissionOptions>): RecordingLogger {
  const logger = new RecordingLogger();
  const plan = planAdmission({ enablePlugins: [], disablePlugins: [], ...options });
  installAdmission(plan, f.registry, f.store('', 'namespaces'), logger);
  return logger;
}

describe('namespace plugins', () => {
  it('NamespaceLifecycle (the default) refuses a create in a missing namespace', () =>
    withStores(async (f) => {
      install(f, {});
      await rejectsWith(f.store('', 'configmaps').create('ns1', configMap('a'), API_WRITE), 404, 'NotFound', 'namespaces "ns1" not found');
    }));

  it('without NamespaceLifecycle, a create in a missing or terminating namespace is stored', () =>
    withStores(async (f) => {
      install(f, { disablePlugins: ['NamespaceLifecycle'] });
      await f.store('', 'configmaps').create('ns1', configMap('a'), API_WRITE);
      assert.ok(await stored(f, CM_KEY));
      const namespaces = f.store('', 'namespaces');
      await namespaces.create('', { metadata: { name: 'ns2' } }, WRITE);
      await namespaces.delete('', 'ns2', { dryRun: false });
      await f.store('', 'configmaps').create('ns2', configMap('b'), API_WRITE);
    }));

  it('NamespaceExists refuses a create in a missing namespace, not in a terminating one', () =>
    withStores(async (f) => {
      install(f, { enablePlugins: ['NamespaceExists'], disablePlugins: ['NamespaceLifecycle'] });
      const configMaps = f.store('', 'configmaps');
      await rejectsWith(configMaps.create('ns1', configMap('a'), API_WRITE), 404, 'NotFound', 'namespaces "ns1" not found');
      assert.equal(await stored(f, CM_KEY), undefined);
      const namespaces = f.store('', 'namespaces');
      await namespaces.create('', { metadata: { name: 'ns1' } }, WRITE);
      await namespaces.delete('', 'ns1', { dryRun: false });
      await configMaps.create('ns1', configMap('a'), API_WRITE);
      assert.ok(await stored(f, CM_KEY));
    }));

  it('NamespaceAutoProvision creates the missing namespace, before NamespaceLifecycle looks', () =>
    withStores(async (f) => {
      install(f, { enablePlugins: ['NamespaceAutoProvision'] });
      await f.store('', 'configmaps').create('ns1', configMap('a'), API_WRITE);
      assert.ok(await stored(f, CM_KEY));
      const ns = await f.store('', 'namespaces').get('', 'ns1', { kind: 'consistent' });
      assert.equal((ns['status'] as { phase: string }).phase, 'Active');
      // Present now: the next create needs no namespace written.
      await f.store('', 'configmaps').create('ns1', configMap('b'), API_WRITE);
    }));

  it('NamespaceAutoProvision still leaves a terminating namespace to NamespaceLifecycle', () =>
    withStores(async (f) => {
      install(f, { enablePlugins: ['NamespaceAutoProvision'] });
      const namespaces = f.store('', 'namespaces');
      await namespaces.create('', { metadata: { name: 'ns1' } }, WRITE);
      await namespaces.delete('', 'ns1', { dryRun: false });
      await rejectsWith(f.store('', 'configmaps').create('ns1', configMap('a'), API_WRITE), 403, 'Forbidden', /because it is being terminated$/);
    }));

  it('NamespaceAutoProvision refuses the create, 403, when the namespace cannot be created', () =>
    withStores(async (f) => {
      install(f, { enablePlugins: ['NamespaceAutoProvision'] });
      await rejectsWith(f.store('', 'configmaps').create('Bad_NS', configMap('a'), API_WRITE), 403, 'Forbidden', /^configmaps "a" is forbidden: Namespace "Bad_NS" is invalid: /);
    }));
});

describe('AlwaysDeny', () => {
  it('refuses API creates, updates and deletes in upstream\'s words, and warns as upstream', () =>
    withStores(async (f) => {
      const logger = install(f, { enablePlugins: ['AlwaysDeny'], disablePlugins: ['NamespaceLifecycle'] });
      assert.deepEqual(logger.warnings, ['AlwaysDeny admission controller is deprecated. Please remove this controller from your configuration files and scripts']);
      const configMaps = f.store('', 'configmaps');
      const error = await rejectsWith(configMaps.create('ns1', configMap('a'), API_WRITE), 403, 'Forbidden', `configmaps "a" is forbidden: ${DENIED}`);
      assert.deepEqual(error.details, { name: 'a', kind: 'configmaps' });
      await rejectsWith(configMaps.create('ns1', { metadata: { generateName: 'a-' }, data: {} }, API_WRITE), 403, 'Forbidden', `configmaps is forbidden: ${DENIED}`);
      await rejectsWith(f.store('apps', 'deployments').create('ns1', { metadata: { name: 'd' } }, API_WRITE), 403, 'Forbidden', `deployments.apps "d" is forbidden: ${DENIED}`);
      // The server's own writes pass, and reads are no writes.
      await configMaps.create('ns1', configMap('a'), WRITE);
      assert.equal((await configMaps.get('ns1', 'a', { kind: 'consistent' })).metadata?.name, 'a');
      await rejectsWith(configMaps.replace('ns1', 'a', configMap('a', { k: 'w' }), API_WRITE), 403, 'Forbidden', `configmaps "a" is forbidden: ${DENIED}`);
      await rejectsWith(configMaps.delete('ns1', 'a', { dryRun: false, user: USER }), 403, 'Forbidden', `configmaps "a" is forbidden: ${DENIED}`);
      await rejectsWith(configMaps.delete('ns1', 'a', { dryRun: false, user: USER, collection: true }), 403, 'Forbidden', `configmaps is forbidden: ${DENIED}`);
      await rejectsWith(configMaps.delete('ns1', 'nope', { dryRun: false, user: USER }), 404, 'NotFound', 'configmaps "nope" not found');
      assert.ok(await stored(f, CM_KEY));
    }));

  it('AlwaysAdmit changes nothing but the warning', () =>
    withStores(async (f) => {
      const logger = install(f, { enablePlugins: ['AlwaysAdmit'], disablePlugins: ['NamespaceLifecycle'] });
      assert.deepEqual(logger.warnings, ['AlwaysAdmit admission controller is deprecated. Please remove this controller from your configuration files and scripts.']);
      await f.store('', 'configmaps').create('ns1', configMap('a'), API_WRITE);
    }));
});

describe('planAdmission', () => {
  it('fails as upstream for a configuration file it cannot read', () => {
    assert.throws(() => planAdmission({ enablePlugins: [], disablePlugins: [], configFile: '/no/such.yaml' }), {
      message: 'failed to read plugin config: unable to read admission control configuration from "/no/such.yaml" [open /no/such.yaml: no such file or directory]',
    });
  });
});
