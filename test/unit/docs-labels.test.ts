// docs/integration.md lists the widget's label keys (wpwlOptions.labels) with their English texts:
// the list is the catalogue's, key for key, so that a text added or changed shows in the docs too.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { en, KEYS } from '../../src/core/locales/en.ts';

describe('docs: the label keys of wpwlOptions.labels', () => {
  it('lists every key of src/core/locales/en.ts with its English text, in order, and nothing else', () => {
    const doc = readFileSync(new URL('../../docs/integration.md', import.meta.url), 'utf8');
    const start = doc.indexOf('<summary>Label keys</summary>');
    assert.ok(start > 0, 'the label keys are not in docs/integration.md');
    const list = doc.slice(start, doc.indexOf('</details>', start));
    const rows = [...list.matchAll(/^\| `([A-Za-z0-9]+)` \| (.*) \|$/gm)].map(([, key, text]) => [key, text!.replace(/\\\|/g, '|')]);
    assert.deepEqual(rows, KEYS.map((key, i) => [key, en[i]]));
  });
});
