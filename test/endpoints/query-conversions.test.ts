/**
 * Query parameters of PATCH and DELETE read as upstream's url.Values conversions read them: a bool
 * is true unless "0" or "false" (any case), and an int64 that does not parse is a 400 in strconv's
 * words.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors.js';
import { forceOf } from '../../src/endpoints/query-flags.js';
import { deleteRequestFrom } from '../../src/endpoints/handlers/delete.js';

const q = (s: string) => new URLSearchParams(s);

describe('force of a PATCH', () => {
  it('is true unless 0 or false, and absent means no', () => {
    for (const value of ['true', '1', 'yes', 'f', '']) assert.equal(forceOf(q(`force=${value}`), true), true, value);
    for (const value of ['false', 'False', '0']) assert.equal(forceOf(q(`force=${value}`), true), false, value);
    assert.equal(forceOf(q(''), true), false);
  });
  it('is refused on a patch that is not an apply, whatever its value', () => {
    assert.throws(() => forceOf(q('force=false'), false), (err: unknown) => err instanceof ApiError && err.code === 422);
  });
});

describe('DeleteOptions from the query', () => {
  it('reads gracePeriodSeconds as an int64, over the body', () => {
    assert.equal(deleteRequestFrom({ gracePeriodSeconds: 30 }, q('gracePeriodSeconds=0')).gracePeriodSeconds, 0);
    assert.equal(deleteRequestFrom({ gracePeriodSeconds: 30 }, q('')).gracePeriodSeconds, 30);
  });
  it('refuses a gracePeriodSeconds that is not an int64 with 400 and strconv\'s words', () => {
    for (const value of ['soon', '1.5', '']) {
      assert.throws(() => deleteRequestFrom(undefined, q(`gracePeriodSeconds=${value}`)),
        (err: unknown) => err instanceof ApiError && err.code === 400 && err.message === `strconv.ParseInt: parsing "${value}": invalid syntax`);
    }
  });
  it('reads orphanDependents as upstream reads a bool', () => {
    assert.equal(deleteRequestFrom(undefined, q('orphanDependents=1')).orphanDependents, true);
    assert.equal(deleteRequestFrom(undefined, q('orphanDependents=FALSE')).orphanDependents, false);
    assert.equal(deleteRequestFrom({ orphanDependents: true }, q('orphanDependents=0')).orphanDependents, false);
  });
});
