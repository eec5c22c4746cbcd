import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_WIZARD_TOOLS, localWizard, NEEDS_KEY } from './local-wizards.ts';

test('every local wizard has 3 to 5 steps; its snippets carry the URL and, where needed, the key', () => {
  for (const tool of LOCAL_WIZARD_TOOLS) {
    const steps = localWizard(tool, 'https://sb.example.test', NEEDS_KEY.has(tool) ? 'svc_dev_SECRET' : null);
    assert.ok(steps.length >= 3 && steps.length <= 5, `${tool}: ${steps.length} steps`);
    const all = JSON.stringify(steps);
    assert.ok(all.includes('https://sb.example.test'), `${tool} names the URL`);
    assert.equal(all.includes('svc_dev_SECRET'), NEEDS_KEY.has(tool), `${tool} carries the key only when it needs one`);
  }
});
