// E-mail through nodemailer: SMTP when SMTP_URL is set, else each message is written as an
// .eml file (0600, in a 0700 folder) under DATA_DIR/outbox so the default run needs no mail server (D11).
import nodemailer from 'nodemailer';
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

export function createMailer(opts: { smtpUrl?: string; outboxDir: string; from: string }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(msg) {
        await transport.sendMail({ from: opts.from, ...msg });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(msg) {
      const info = await transport.sendMail({ from: opts.from, ...msg });
      // Messages carry sign-in and reset links: owner-only, like any token (issue 22).
      await privateDir(opts.outboxDir);
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
      await writePrivateFile(join(opts.outboxDir, name), info.message as Buffer);
    },
  };
}
