/**
 * What /debug/flags/v takes: a level as klog reads it (Go's ParseInt, 32 bits), with Go's error
 * texts; and the logger it sets, which writes more or less from then on.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { parseLevel } from '../../src/debug/debug-flags.js';
import { ConsoleLogger } from '../../src/server/logger.js';

describe('parseLevel', () => {
  const table: Array<[string, number | string]> = [
    ['4', 4],
    ['+2', 2],
    ['-1', -1],
    ['0', 0],
    ['4\n', 'strconv.ParseInt: parsing "4\\n": invalid syntax'],
    ['x', 'strconv.ParseInt: parsing "x": invalid syntax'],
    ['', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['2147483648', 'strconv.ParseInt: parsing "2147483648": value out of range'],
    ['-2147483648', -2147483648],
  ];
  for (const [text, want] of table) it(`reads ${JSON.stringify(text)}`, () => assert.equal(parseLevel(text), want));
});

describe('ConsoleLogger.setVerbosity', () => {
  it('writes the levels up to the new verbosity from then on', () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    stream.on('data', (d: Buffer) => lines.push(...d.toString().trim().split('\n')));
    const logger = new ConsoleLogger({ stream, verbosity: 0 });
    logger.info('hidden', 2);
    logger.setVerbosity(2);
    assert.equal(logger.enabled(2), true);
    logger.info('shown', 2);
    logger.info('still hidden', 3);
    logger.setVerbosity(0);
    logger.info('hidden again', 1);
    assert.deepEqual(lines.map((l) => l.replace(/^I\S+ \S+ /, '')), ['shown']);
  });
});
