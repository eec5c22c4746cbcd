// Prints the conformance tables of docs/conformance.md from test/conformance/spec-items.ts (the
// same tables test/conformance.test.ts checks against the running server), so the document and
// the test cannot drift apart: `node --import tsx scripts/conformance-table.ts`.
import { BEHAVIOURS, ENUMS, EVENTS, FIELDS, HEADERS, ROUTES, WEB_ROUTES, type Result } from '../test/conformance/spec-items.ts';

const cell = (s: string) => s.replace(/\|/g, '\\|');
const res = (r: Result) => cell(r);
const out: string[] = [];
const table = (title: string, head: string[], rows: string[][]) => {
  out.push(`### ${title} (${rows.length})`, '', `| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`), '');
};

table('Paths', ['Method', 'Path', 'Auth', 'Source', 'Result'], ROUTES.map((r) => [r.method, `\`${cell(r.path)}\``, r.auth, r.source, res(r.result)]));
table('Web routes', ['Path', 'Source', 'Result'], WEB_ROUTES.map((w) => [`\`${w.path}\``, w.source, res(w.result)]));
table('Response fields', ['Response', 'Field', 'Type', 'Source', 'Result'], FIELDS.map((f) => [`\`${cell(f.probe)}\``, `\`${f.field}\``, cell(f.type), f.source, res(f.result)]));
table('Headers', ['Where', 'Header', 'Pattern', 'Source', 'Result'], HEADERS.map((h) => [h.probe, `\`${h.header}\``, `\`${cell(h.pattern)}\``, h.source, res(h.result)]));
table('Event types and payload fields', ['Type', 'Payload fields checked', 'Source', 'Result'], EVENTS.map((e) => [`\`${e.type}\``, Object.entries(e.payload).map(([k, t]) => `${k}: ${cell(t)}`).join(', ') || '(frame fields only; the payload is not named)', e.source, res(e.result)]));
table('Enumerations', ['Name', 'Values', 'Source', 'Result'], ENUMS.map((e) => [e.name, e.values.map((v) => `\`${v}\``).join(', '), e.source, res(e.result)]));
table('Behaviours and limits', ['Item', 'Checked by', 'Source', 'Result'], BEHAVIOURS.map((b) => [cell(b.item), b.check, b.source, res(b.result)]));
console.log(out.join('\n'));
