// A real SMTP server on 127.0.0.1 for tests (smtp-server; no auth, no TLS): collects every message.
import { SMTPServer } from 'smtp-server';
import { decodeMail } from './helpers.ts';

export interface Smtp {
  url: string;
  messages: Array<{ to: string[]; raw: string; text: string }>;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<Smtp> {
  const messages: Smtp['messages'] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, text: decodeMail(raw) });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
