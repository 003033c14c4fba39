import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Compactor, type CompactorClock } from '../../src/storage/compactor.js';
import { compacted, unavailable } from '../../src/storage/errors.js';

/** Timers that fire only when the test says so. */
class ManualClock implements CompactorClock {
  private timers = new Map<number, { callback: () => void; ms: number }>();
  private nextHandle = 1;

  setTimeout(callback: () => void, ms: number): unknown {
    const handle = this.nextHandle++;
    this.timers.set(handle, { callback, ms });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  get pending(): number[] {
    return [...this.timers.values()].map((t) => t.ms);
  }

  /** Fires every pending timer, then lets the rounds they started finish. */
  async fire(): Promise<void> {
    const due = [...this.timers.values()];
    this.timers.clear();
    for (const timer of due) timer.callback();
    await settle();
  }
}

/** A store whose revision the test sets, recording compactions and failing on demand. */
class FakeStore {
  revision = 0;
  compactions: number[] = [];
  failures: Array<'compact' | 'read'> = [];

  async currentRevision(): Promise<number> {
    if (this.failures[0] === 'read') {
      this.failures.shift();
      throw unavailable('read failed');
    }
    return this.revision;
  }

  async compact(revision: number): Promise<void> {
    if (this.failures[0] === 'compact') {
      this.failures.shift();
      throw unavailable('compaction failed');
    }
    this.compactions.push(revision);
  }
}

class RecordingLogger {
  errors: string[] = [];
  error(message: string): void {
    this.errors.push(message);
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

function setup(intervalMs = 1000) {
  const clock = new ManualClock();
  const store = new FakeStore();
  const logger = new RecordingLogger();
  const compactor = new Compactor({ storage: store, intervalMs, logger, clock });
  return { clock, store, logger, compactor };
}

describe('Compactor', () => {
  it('compacts each round to the revision it read one interval earlier', async () => {
    const { clock, store, compactor } = setup();
    store.revision = 100;
    compactor.start();
    await settle();
    assert.deepEqual(clock.pending, [1000]);
    assert.deepEqual(store.compactions, [], 'nothing is compacted at start');

    store.revision = 250;
    await clock.fire();
    assert.deepEqual(store.compactions, [100]);

    store.revision = 400;
    await clock.fire();
    assert.deepEqual(store.compactions, [100, 250]);
    await compactor.stop();
  });

  it('skips a round when the revision has not moved since the last compaction', async () => {
    const { clock, store, compactor } = setup();
    store.revision = 100;
    compactor.start();
    await settle();
    await clock.fire();
    await clock.fire();
    await clock.fire();
    assert.deepEqual(store.compactions, [100]);
    await compactor.stop();
  });

  it('logs a failed compaction or read and keeps going', async () => {
    const { clock, store, logger, compactor } = setup();
    store.revision = 100;
    store.failures = ['read'];
    compactor.start();
    await settle();
    assert.equal(logger.errors.length, 1);
    assert.deepEqual(clock.pending, [1000], 'the next round is scheduled after a failed read');

    await clock.fire(); // reads 100
    store.revision = 200;
    store.failures = ['compact'];
    await clock.fire(); // compaction to 100 fails, reads 200
    assert.deepEqual(store.compactions, []);
    assert.equal(logger.errors.length, 2);
    assert.match(logger.errors[1]!, /compaction to revision 100 failed/);

    await clock.fire(); // compacts to 200
    assert.deepEqual(store.compactions, [200]);
    assert.deepEqual(clock.pending, [1000]);
    await compactor.stop();
  });

  it("treats 'compacted' (someone compacted further) as done, without logging", async () => {
    const { clock, store, logger, compactor } = setup();
    store.revision = 100;
    let attempts = 0;
    store.compact = async () => {
      attempts++;
      throw compacted(100, 150);
    };
    compactor.start();
    await settle();
    await clock.fire(); // tries 100: compacted already
    assert.deepEqual(logger.errors, []);
    await clock.fire(); // nothing new since: no second try at 100
    assert.equal(attempts, 1);
    assert.deepEqual(logger.errors, []);
    await compactor.stop();
  });

  it('an interval of 0 disables it', async () => {
    const { clock, store, compactor } = setup(0);
    compactor.start();
    await settle();
    assert.deepEqual(clock.pending, []);
    assert.deepEqual(store.compactions, []);
    await compactor.stop();
  });

  it('stop cancels the next round', async () => {
    const { clock, store, compactor } = setup();
    store.revision = 100;
    compactor.start();
    await settle();
    await compactor.stop();
    assert.deepEqual(clock.pending, []);
    await clock.fire();
    assert.deepEqual(store.compactions, []);
  });

  it('refuses a negative interval', () => {
    assert.throws(() => new Compactor({ storage: new FakeStore(), intervalMs: -1, logger: new RecordingLogger() }), RangeError);
  });
});
