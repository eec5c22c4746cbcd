// E-mail through nodemailer: SMTP when SMTP_URL is set, else each message is written as an
// .eml file (0600, in a 0700 folder) under DATA_DIR/outbox so the default run needs no mail server (D11).
import type { Transporter } from 'nodemailer';
import { privateDir, writePrivateFile } from './private-file.ts';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(msg: MailMessage): Promise<void>;
}

/**
 * nodemailer is loaded with the first message, not at start-up: most processes send no mail for
 * a long time, and the module costs ≈ 5 MB of RSS. One transport per mailer, created once.
 */
function lazyTransport(options: string | Record<string, unknown>): () => Promise<Transporter> {
  let transport: Promise<Transporter> | null = null;
  return () => {
    if (!transport) {
      transport = import('nodemailer').then((m) => m.default.createTransport(options));
      // A failed load is not remembered: the next message tries again.
      transport.catch(() => {
        transport = null;
      });
    }
    return transport;
  };
}

export function createMailer(opts: { smtpUrl?: string; outboxDir: string; from: string }): Mailer {
  if (opts.smtpUrl) {
    const transport = lazyTransport(opts.smtpUrl);
    return {
      async send(msg) {
        await (await transport()).sendMail({ from: opts.from, ...msg });
      },
    };
  }
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(msg) {
      const info = await (await transport()).sendMail({ from: opts.from, ...msg });
      // Messages carry sign-in and reset links: owner-only, like any token (issue 22).
      await privateDir(opts.outboxDir);
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
      await writePrivateFile(join(opts.outboxDir, name), info.message as Buffer);
    },
  };
}
