// The SSE parser against the event-stream rules, fed whole and in every possible split.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSseParser, encodeSse, encodeSseComment, parseSse, type SseRecord } from './sse.ts';

/** Feed `text` split at every pair of cut points; every split must give the same records. */
function allSplits(text: string): SseRecord[][] {
  const results: SseRecord[][] = [];
  for (let a = 0; a <= text.length; a++) {
    for (let b = a; b <= text.length; b += 3) {
      const p = createSseParser();
      results.push([...p.push(text.slice(0, a)), ...p.push(text.slice(a, b)), ...p.push(text.slice(b)), ...p.end()]);
    }
  }
  return results;
}

describe('SSE parser', () => {
  it('reads event, data, id and retry fields', () => {
    assert.deepEqual(parseSse('event: ping\nid: 7\nretry: 1500\ndata: {"a":1}\n\n'), [
      { event: 'ping', id: '7', retry: 1500, data: '{"a":1}' },
    ]);
  });

  it('joins multi-line data with LF and strips exactly one leading space', () => {
    assert.deepEqual(parseSse('data: one\ndata:two\ndata:  three\n\n'), [{ data: 'one\ntwo\n three' }]);
  });

  it('ignores comments and unknown fields, and does not dispatch an event without data', () => {
    assert.deepEqual(parseSse(': keep-alive\nfoo: bar\n\nevent: x\n\ndata: y\n\n'), [{ data: 'y' }]);
  });

  it('dispatches an empty data field', () => {
    assert.deepEqual(parseSse('data:\n\n'), [{ data: '' }]);
  });

  it('accepts CRLF, CR and LF line ends, mixed', () => {
    const text = 'data: a\r\n\r\ndata: b\r\rdata: c\n\nevent: e\r\ndata: d\r\n\r\n';
    assert.deepEqual(parseSse(text), [{ data: 'a' }, { data: 'b' }, { data: 'c' }, { event: 'e', data: 'd' }]);
  });

  it('gives the same records however the stream is split (CR/LF straddling a chunk included)', () => {
    const text = 'event: message_start\r\ndata: {"x":"é€"}\r\n\r\n: c\r\ndata: 1\rdata: 2\r\rdata: [DONE]\n\n';
    const expected = [{ event: 'message_start', data: '{"x":"é€"}' }, { data: '1\n2' }, { data: '[DONE]' }];
    for (const r of allSplits(text)) assert.deepEqual(r, expected);
  });

  it('decodes UTF-8 split inside a character', () => {
    const bytes = new TextEncoder().encode('data: héllo €\n\n');
    for (let cut = 0; cut <= bytes.length; cut++) {
      const p = createSseParser();
      const recs = [...p.push(bytes.slice(0, cut)), ...p.push(bytes.slice(cut)), ...p.end()];
      assert.deepEqual(recs, [{ data: 'héllo €' }]);
    }
  });

  it('strips a leading BOM', () => {
    assert.deepEqual(parseSse('\uFEFFdata: x\n\n'), [{ data: 'x' }]);
  });

  it('dispatches a pending event at end of stream when the server omits the blank line', () => {
    assert.deepEqual(parseSse('data: a\n\ndata: [DONE]'), [{ data: 'a' }, { data: '[DONE]' }]);
  });

  it('encodes and round-trips, splitting multi-line data', () => {
    const recs: SseRecord[] = [
      { event: 'content_block_delta', data: '{"t":1}' },
      { data: 'line1\nline2\r\nline3' },
      { id: '9', data: '' },
    ];
    const text = recs.map(encodeSse).join('') + encodeSseComment('hi');
    assert.equal(encodeSse(recs[0]), 'event: content_block_delta\ndata: {"t":1}\n\n');
    assert.deepEqual(parseSse(text), [recs[0], { data: 'line1\nline2\nline3' }, { id: '9', data: '' }]);
  });
});
