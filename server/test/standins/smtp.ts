import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// A real SMTP server on a socket (the smtp-server package), keeping what arrives.

export interface ArrivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** the message body after the headers */
  body: string;
}

export interface SmtpStandin {
  url: string;
  mails: ArrivedMail[];
  close(): Promise<void>;
}

function quotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

export async function startSmtp(user = 'panel', pass = 'smtp-secret'): Promise<SmtpStandin> {
  const mails: ArrivedMail[] = [];
  const server = new SMTPServer({
    authOptional: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === pass) return cb(null, { user });
      return cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
        const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? '';
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject,
          body: /^Content-Transfer-Encoding: quoted-printable/im.test(head) ? quotedPrintable(rest.join('\n\n')) : rest.join('\n\n'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://${user}:${pass}@127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
