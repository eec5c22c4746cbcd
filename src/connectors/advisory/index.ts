// `switchboard advisory <file>` (D14 tier 6): upload a call history (NDJSON or CSV) to a
// Switchboard, wait for the worker, and print the report. stdout carries the report only; the
// progress bar goes to stderr (redrawn in place on a terminal, a line per 10 % otherwise), so
// `switchboard advisory calls.ndjson > report.txt` keeps a clean report.
// Credentials: SWITCHBOARD_API_KEY (a service key), or SWITCHBOARD_TOKEN (a user's access token
// or personal access token). The file is streamed from disk, never read whole.
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { renderReport, type ReportData } from './report-text.ts';

/** Exit codes (sysexits). */
export const EXIT = { usage: 64, noInput: 66, credentials: 77, unavailable: 69, failed: 1 } as const;

export interface AdvisoryCliConfig {
  SWITCHBOARD_URL: string;
  SWITCHBOARD_API_KEY?: string;
  SWITCHBOARD_TOKEN?: string;
}

const USAGE = 'usage: switchboard advisory <file.ndjson|file.csv> [--format ndjson|csv] [--project <projectId>] [--json]';

class CliError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

export function parseArgs(argv: string[]): { file: string; format?: 'ndjson' | 'csv'; project?: string; json: boolean } {
  let file: string | undefined;
  let format: 'ndjson' | 'csv' | undefined;
  let project: string | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '--format') {
      const v = argv[++i];
      if (v !== 'ndjson' && v !== 'csv') throw new CliError(`--format takes ndjson or csv\n${USAGE}`, EXIT.usage);
      format = v;
    } else if (a === '--project') {
      project = argv[++i];
      if (!project) throw new CliError(`--project takes a project id\n${USAGE}`, EXIT.usage);
    } else if (a.startsWith('-')) throw new CliError(`unknown option ${a}\n${USAGE}`, EXIT.usage);
    else if (file === undefined) file = a;
    else throw new CliError(`one file at a time\n${USAGE}`, EXIT.usage);
  }
  if (!file) throw new CliError(USAGE, EXIT.usage);
  return { file, format, project, json };
}

/** The progress bar on stderr. */
function progressBar(stream: NodeJS.WriteStream) {
  const tty = stream.isTTY === true;
  let lastStep = -1;
  let lastLabel = '';
  return {
    update(label: string, pct: number, detail: string) {
      const p = Math.max(0, Math.min(100, Math.floor(pct)));
      if (tty) {
        const filled = Math.round(p / 5);
        stream.write(`\r${label.padEnd(12)} [${'#'.repeat(filled)}${'.'.repeat(20 - filled)}] ${String(p).padStart(3)}%  ${detail}\x1b[K`);
        return;
      }
      const step = Math.floor(p / 10);
      if (label === lastLabel && step === lastStep) return;
      lastLabel = label;
      lastStep = step;
      stream.write(`${label} ${p}% ${detail}\n`);
    },
    done() {
      if (tty) stream.write('\n');
    },
  };
}

async function call(url: string, init: RequestInit & { duplex?: 'half' }): Promise<any> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw new CliError(`Switchboard at ${new URL(url).origin} could not be reached (${(e as Error).cause ?? (e as Error).message}): check SWITCHBOARD_URL`, EXIT.unavailable);
  }
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  if (res.ok && body?.success) return body.data;
  const message = body?.error ?? `HTTP ${res.status}`;
  if (res.status === 401 || res.status === 403) throw new CliError(`${message}. Check SWITCHBOARD_API_KEY (a key from ${new URL(url).origin}/developer-zone) or SWITCHBOARD_TOKEN.`, EXIT.credentials);
  throw new CliError(message, res.status >= 500 ? EXIT.unavailable : EXIT.failed);
}

export async function runAdvisory(cfg: AdvisoryCliConfig, argv: string[], io: { out: NodeJS.WritableStream; err: NodeJS.WriteStream }): Promise<number> {
  try {
    const args = parseArgs(argv);
    const bearer = cfg.SWITCHBOARD_API_KEY ?? cfg.SWITCHBOARD_TOKEN;
    if (!bearer) throw new CliError(`Set SWITCHBOARD_API_KEY to a service key (create one at ${cfg.SWITCHBOARD_URL}/developer-zone), or SWITCHBOARD_TOKEN to a personal access token.`, EXIT.credentials);
    let size: number;
    try {
      const st = statSync(args.file);
      if (!st.isFile()) throw new Error('not a file');
      size = st.size;
    } catch {
      throw new CliError(`${args.file}: no such file`, EXIT.noInput);
    }
    const bar = progressBar(io.err);
    const auth = { authorization: `Bearer ${bearer}` };
    const q = new URLSearchParams({ filename: basename(args.file) });
    if (args.format) q.set('format', args.format);
    if (args.project) q.set('projectId', args.project);
    let sent = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        sent += chunk.length;
        bar.update('uploading', size === 0 ? 100 : (sent * 100) / size, `${(sent / 1e6).toFixed(1)} / ${(size / 1e6).toFixed(1)} MB`);
        done(null, chunk);
      },
    });
    const contentType = args.format === 'csv' || (!args.format && /\.csv$/i.test(args.file)) ? 'text/csv' : 'application/x-ndjson';
    const up = await call(`${cfg.SWITCHBOARD_URL}/api/advisory/imports?${q}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': contentType },
      body: Readable.toWeb(createReadStream(args.file).pipe(counter)) as ReadableStream,
      duplex: 'half',
    });
    let report: ReportData;
    for (;;) {
      report = await call(`${cfg.SWITCHBOARD_URL}/api/advisory/imports/${up.id}?limit=1`, { headers: auth });
      const p = report.progress;
      bar.update('classifying', p.percent, `${(p.processedRows + p.malformedRows).toLocaleString('en-US')} / ${p.totalRows.toLocaleString('en-US')} rows`);
      if (report.status === 'done' || report.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 300));
    }
    bar.done();
    io.out.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : renderReport(report, cfg.SWITCHBOARD_URL));
    return report.status === 'done' ? 0 : EXIT.failed;
  } catch (e) {
    if (e instanceof CliError) {
      io.err.write(`switchboard advisory: ${e.message}\n`);
      return e.code;
    }
    throw e;
  }
}

/** The `advisory` command of main.ts. */
export async function advisoryCommand(cfg: AdvisoryCliConfig, argv: string[]): Promise<void> {
  process.exitCode = await runAdvisory(cfg, argv, { out: process.stdout, err: process.stderr });
}
