/**
 * The audit log's modes: blocking (a failed write reported, the request goes on), blocking-strict
 * (the failure is the request's), batch (queued, written several per write, by size, wait and
 * throttle, dropped past the buffer, all written at stop), and truncation of large events.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { blockingSink } from '../../src/audit/blocking-sink.js';
import { BufferedSink, type BatchConfig } from '../../src/audit/buffered-sink.js';
import type { AuditEvent } from '../../src/audit/event.js';
import type { EventWriter } from '../../src/audit/event-writer.js';
import { truncatingSink } from '../../src/audit/truncating-sink.js';
import type { AuditSink } from '../../src/audit/sink.js';
import { ManualTimers } from '../manual-timers.js';
import { RecordingLogger } from '../recording-logger.js';

function event(id: string, overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    level: 'Metadata', auditID: id, stage: 'RequestReceived', requestURI: '/api', verb: 'get',
    user: { username: 'u' }, requestReceivedTimestamp: '2026-11-28T08:00:00.000000Z', stageTimestamp: '2026-11-28T08:00:00.000000Z', ...overrides,
  };
}

class RecordingWriter implements EventWriter {
  readonly plugin = 'log';
  readonly batches: string[][] = [];
  failing = false;
  closed = false;
  writeEvents(events: readonly AuditEvent[]): void {
    if (this.failing) throw new Error('disk full');
    this.batches.push(events.map((e) => `${e.auditID}:${e.stage}`));
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}


describe('blocking sinks', () => {
  it('write each event at once; a failure is reported and fails only a strict sink', async () => {
    const writer = new RecordingWriter();
    const logger = new RecordingLogger();
    const lenient = blockingSink(writer, false, logger);
    const strict = blockingSink(writer, true, logger);
    assert.equal(lenient.processEvent(event('a')), true);
    assert.deepEqual(writer.batches, [['a:RequestReceived']]);
    writer.failing = true;
    assert.equal(lenient.processEvent(event('b')), true);
    assert.equal(strict.processEvent(event('c')), false);
    assert.equal(logger.errors.length, 2);
    assert.match(logger.errors[0]!, /^Error in audit plugin 'log' affecting 1 audit events: disk full\nImpacted events:\n.* AUDIT: id="b" stage="RequestReceived"/);
    await strict.close();
    assert.equal(writer.closed, true);
  });
});

describe('BufferedSink', () => {
  const config: BatchConfig = { bufferSize: 100, maxBatchSize: 3, maxBatchWaitMs: 1000, throttleEnable: false, throttleQps: 0, throttleBurst: 0 };

  function setup(overrides: Partial<BatchConfig> = {}) {
    const writer = new RecordingWriter();
    const timers = new ManualTimers();
    const logger = new RecordingLogger();
    const sink = new BufferedSink(writer, { ...config, ...overrides }, logger, timers, () => timers.now());
    return { writer, timers, logger, sink };
  }

  it('writes a batch when it is full, or when the first event has waited long enough', () => {
    const { writer, timers, sink } = setup();
    for (const id of ['1', '2', '3', '4']) assert.equal(sink.processEvent(event(id)), true);
    assert.deepEqual(writer.batches, [], 'nothing is written in the request\'s own turn');
    timers.advance(0);
    assert.deepEqual(writer.batches, [['1:RequestReceived', '2:RequestReceived', '3:RequestReceived']]);
    timers.advance(999);
    assert.equal(writer.batches.length, 1);
    timers.advance(1);
    assert.deepEqual(writer.batches[1], ['4:RequestReceived']);
  });

  it('keeps the event as it was when handed over, though the filter changes it after', () => {
    const { writer, timers, sink } = setup({ maxBatchSize: 1 });
    const e = event('x', { annotations: { a: '1' } });
    sink.processEvent(e);
    e.stage = 'ResponseComplete';
    e.annotations!['b'] = '2';
    sink.processEvent(e);
    timers.advance(0);
    assert.deepEqual(writer.batches, [['x:RequestReceived'], ['x:ResponseComplete']]);
  });

  it('drops events past the buffer, reporting them, without failing the request', () => {
    const { writer, timers, logger, sink } = setup({ bufferSize: 2, maxBatchSize: 10 });
    sink.processEvent(event('1'));
    sink.processEvent(event('2'));
    assert.equal(sink.processEvent(event('3')), true);
    assert.match(logger.errors[0]!, /affecting 1 audit events: audit buffer queue blocked/);
    timers.advance(1000);
    assert.deepEqual(writer.batches, [['1:RequestReceived', '2:RequestReceived']]);
  });

  it('writes at most the throttle\'s rate of batches after its burst', () => {
    const { writer, timers, sink } = setup({ maxBatchSize: 1, throttleEnable: true, throttleQps: 2, throttleBurst: 2 });
    for (const id of ['1', '2', '3', '4']) sink.processEvent(event(id));
    timers.advance(0);
    assert.equal(writer.batches.length, 2, 'the burst goes at once');
    timers.advance(499);
    assert.equal(writer.batches.length, 2);
    timers.advance(1);
    assert.equal(writer.batches.length, 3, 'then one every 1/qps seconds');
    timers.advance(500);
    assert.equal(writer.batches.length, 4);
  });

  it('writes every queued event when it closes, and reports a failed write', async () => {
    const { writer, logger, sink } = setup({ maxBatchSize: 2 });
    for (const id of ['1', '2', '3']) sink.processEvent(event(id));
    await sink.close();
    assert.deepEqual(writer.batches, [['1:RequestReceived', '2:RequestReceived'], ['3:RequestReceived']]);
    assert.equal(writer.closed, true);
    const failing = setup();
    failing.writer.failing = true;
    failing.sink.processEvent(event('9'));
    failing.timers.advance(1000);
    assert.match(failing.logger.errors[0]!, /affecting 1 audit events: disk full/);
    assert.equal(logger.errors.length, 0);
  });
});

describe('truncatingSink', () => {
  function setup(maxEventSize: number) {
    const seen: AuditEvent[] = [];
    const delegate: AuditSink = { processEvent: (e) => (seen.push(e), true), close: async () => {} };
    const logger = new RecordingLogger();
    return { seen, logger, sink: truncatingSink(delegate, { maxEventSize, maxBatchSize: maxEventSize * 10 }, 'audit.cluster.io/v1', logger) };
  }
  const big = { data: 'x'.repeat(2000) };

  it('passes small events as they are', () => {
    const { seen, sink } = setup(4000);
    const e = event('a', { level: 'RequestResponse', requestObject: big });
    sink.processEvent(e);
    assert.equal(seen[0], e);
  });

  it('drops the objects of a large event and says so in an annotation of the event\'s group', () => {
    const { seen, sink } = setup(1000);
    sink.processEvent(event('a', { level: 'RequestResponse', requestObject: big, responseObject: big, annotations: { k: 'v' } }));
    assert.equal(seen[0]!.requestObject, undefined);
    assert.equal(seen[0]!.responseObject, undefined);
    assert.deepEqual(seen[0]!.annotations, { k: 'v', 'audit.cluster.io/truncated': 'true' });
  });

  it('drops and reports an event still too large', () => {
    const { seen, logger, sink } = setup(300);
    assert.equal(sink.processEvent(event('a', { level: 'Metadata', requestURI: `/api?${'q'.repeat(500)}` })), true);
    assert.equal(seen.length, 0);
    assert.match(logger.errors[0]!, /^Error in audit plugin 'truncate' affecting 1 audit events: event is too large even after truncating/);
  });
});
