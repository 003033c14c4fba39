import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStorage } from '../../../src/storage/sqlite/sqlite-storage.js';
import { AllocationError } from '../../../src/registry/allocators/allocator.js';
import { Ipv4Range } from '../../../src/registry/allocators/ipv4-range.js';
import { PortRange } from '../../../src/registry/allocators/port-range.js';
import { StorageAllocator } from '../../../src/registry/allocators/storage-allocator.js';
import { createServiceAllocators } from '../../../src/registry/allocators/service-allocators.js';

const dataDir = await mkdtemp(join(tmpdir(), 'capstan-allocator-'));
const storage = await SqliteStorage.open({ dataDir, writer: 'inline' });
after(async () => {
  await storage.close();
  await rm(dataDir, { recursive: true, force: true });
});

let prefixes = 0;
function ips(cidr: string, prefix = `/test/ips${prefixes++}/`) {
  return new StorageAllocator({ storage, prefix, range: new Ipv4Range(cidr), noun: 'serviceIP' });
}

const failure = (kind: string) => (err: unknown) => err instanceof AllocationError && err.failure === kind;

test('a specific value is taken once; release frees it', async () => {
  const a = ips('10.0.0.0/24');
  await a.allocate('10.0.0.10', 'services/ns/a');
  await assert.rejects(a.allocate('10.0.0.10', 'services/ns/b'), failure('taken'));
  await assert.rejects(a.allocate('10.0.1.10', 'services/ns/b'), failure('out-of-range'));
  assert.equal(await a.isFree('10.0.0.10'), false);
  await a.release('10.0.0.10');
  await a.release('10.0.0.10');
  assert.equal(await a.isFree('10.0.0.10'), true);
  await a.allocate('10.0.0.10', 'services/ns/b');
});

test('the first address is allocatable by request but never automatically', async () => {
  const a = ips('10.0.0.0/29');
  const got = new Set<string>();
  for (let i = 0; i < 5; i++) got.add(await a.allocateNext('o'));
  assert.equal(got.has('10.0.0.1'), false);
  assert.equal(got.size, 5);
  await assert.rejects(a.allocateNext('o'), (err: unknown) => failure('full')(err) && (err as Error).message === 'failed to allocate a serviceIP: range is full');
  await a.allocate('10.0.0.1', 'services/default/kubernetes');
});

test('peekNext does not reserve', async () => {
  const a = ips('10.0.0.0/29');
  const peeked = await a.peekNext();
  assert.equal(await a.isFree(peeked), true);
});

test('replicas sharing one store never hand out a value twice under concurrent allocation', async () => {
  const prefix = `/test/race${prefixes++}/`;
  // Two allocators over one storage: like two server replicas, they share nothing in memory.
  const replicas = [ips('10.0.0.0/28', prefix), ips('10.0.0.0/28', prefix)];
  const attempts = Array.from({ length: 20 }, (_, i) => replicas[i % 2]!.allocateNext(`o${i}`).then((ip) => ip, (err: unknown) => err));
  const results = await Promise.all(attempts);
  const ipsGot = results.filter((r): r is string => typeof r === 'string');
  assert.equal(ipsGot.length, 13, 'a /28 has 14 usable addresses, one kept for the kubernetes Service');
  assert.equal(new Set(ipsGot).size, ipsGot.length);
  assert.ok(results.filter((r) => typeof r !== 'string').every(failure('full')));
});

test('node ports from the configured range, concurrently unique', async () => {
  const { nodePorts, clusterIps } = createServiceAllocators({
    storage, storePrefix: '/registry/', clusterIpRanges: ['10.96.0.0/16'], nodePortRange: { min: 30000, max: 30039 },
  });
  assert.equal(clusterIps?.range, '10.96.0.0/16');
  const ports = await Promise.all(Array.from({ length: 40 }, (_, i) => nodePorts.allocateNext(`o${i}`)));
  assert.equal(new Set(ports).size, 40);
  assert.ok(ports.every((p) => p >= 30000 && p <= 30039));
  await assert.rejects(nodePorts.allocateNext('x'), failure('full'));
  const { kvs } = await storage.list('/registry/capstan/servicenodeports/');
  assert.equal(kvs.length, 40);
});

test('an unparseable marker key is ignored', async () => {
  const prefix = `/test/junk${prefixes++}/`;
  await storage.create(`${prefix}not-a-port`, new Uint8Array());
  const ports = new StorageAllocator({ storage, prefix, range: new PortRange(30000, 30001), noun: 'nodePort' });
  assert.equal(new Set([await ports.allocateNext('a'), await ports.allocateNext('b')]).size, 2);
});
