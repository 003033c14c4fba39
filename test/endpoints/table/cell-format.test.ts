/** Label selectors as the Table printers and the Scale subresource print them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelSelectorText } from '../../../src/endpoints/table/cell-format.js';

test('labelSelectorText prints a structured selector as upstream does: by key, values sorted', () => {
  const printed = labelSelectorText({
    matchLabels: { tier: 'web', app: 'shop' },
    matchExpressions: [
      { key: 'zone', operator: 'NotIn', values: ['b', 'a'] },
      { key: 'canary', operator: 'DoesNotExist' },
      { key: 'env', operator: 'In', values: ['prod', 'dev'] },
      { key: 'owner', operator: 'Exists' },
    ],
  });
  assert.equal(printed, 'app=shop,!canary,env in (dev,prod),owner,tier=web,zone notin (a,b)');
  assert.equal(labelSelectorText({}), '');
});
