// The benchmark's import at a test's size (issue 17 item 7): the same generated history as
// bench/advisory.ts (the three wire shapes in turn), streamed from disk, processed by the worker
// in several pipelined batches; every row is classified once and the report's totals are the sums
// of its rows (checked against the CSV export, row by row).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { startTestServer, tenantWithKey, type TestServer } from '../../../../test/harness.ts';
import { eventually } from '../../../../test/helpers.ts';
import { line } from '../../../../bench/advisory.ts';

const ROWS = 5_000;
let srv: TestServer;
let dir: string;
before(async () => {
  srv = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'adv17-volume-'));
});
after(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

test(`a ${ROWS.toLocaleString('en-US')}-row streamed import: every row decided once, totals are the sums of the rows`, async () => {
  const t = await tenantWithKey(srv);
  await srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body: { providerKey: 'google' } });
  const file = join(dir, 'history.ndjson');
  writeFileSync(file, Array.from({ length: ROWS }, (_, i) => line(i + 1)).join('\n') + '\n');
  const res = await fetch(`${srv.url}/api/advisory/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/x-ndjson' },
    body: Readable.toWeb(createReadStream(file, { highWaterMark: 16 * 1024 })) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const up = (await res.json()) as any;
  assert.equal(res.status, 202, JSON.stringify(up));
  assert.deepEqual([up.data.progress.totalRows, up.data.progress.malformedRows], [ROWS, 0]);
  const rep = await eventually(async () => {
    const r = await srv.api('GET', `/api/advisory/imports/${up.data.id}?limit=1`, { token: t.key });
    return r.body.data.status === 'done' ? r.body.data : undefined;
  }, 60_000, 'the import to finish');
  assert.deepEqual(rep.progress, { totalRows: ROWS, processedRows: ROWS, malformedRows: 0, percent: 100 });
  assert.equal(rep.totals.calls, ROWS);
  assert.equal(rep.byTaskFamily.reduce((a: number, f: { calls: number }) => a + f.calls, 0), ROWS);
  assert.ok(rep.byTaskFamily.length >= 3, 'the generated prompts span several task families');

  const csv = await fetch(`${srv.url}/api/advisory/imports/${rep.id}/export`, { headers: { authorization: `Bearer ${t.key}` } });
  const lines = (await csv.text()).trim().split('\r\n');
  const head = lines[0].split(',');
  const col = (name: string) => head.indexOf(name);
  assert.equal(lines.length, ROWS + 1);
  let hist = 0n, would = 0n, base = 0n, saved = 0n;
  const seen = new Set<string>();
  for (const l of lines.slice(1)) {
    // Prompts may hold commas: read the numeric columns from the end of the line.
    const cells = l.split(',');
    const from = (name: string) => cells[cells.length - (head.length - col(name))];
    seen.add(cells[0]);
    assert.equal(cells[1], 'done');
    hist += BigInt(from('historical_cost'));
    would += BigInt(from('would_have_cost'));
    base += BigInt(from('equivalent_burn'));
    saved += BigInt(from('tokens_saved'));
  }
  assert.equal(seen.size, ROWS, 'each line once');
  assert.deepEqual(
    [rep.totals.historicalCost, rep.totals.wouldHaveCost, rep.totals.equivalentBurn, rep.totals.tokensSaved],
    [hist.toString(), would.toString(), base.toString(), saved.toString()],
  );
  assert.equal(saved, base - would);
});
