import nodemailer, { type Transporter } from 'nodemailer';
import { reasonOfSmtp } from './failure.ts';
import type { SendOutcome } from './whatsapp.ts';

// E-mail through the deployment's SMTP server (SMTP_URL, SMTP_FROM), in the reseller's name.

const transports = new Map<string, Transporter>();

function transport(smtpUrl: string, timeoutMs: number): Transporter {
  let t = transports.get(smtpUrl);
  if (!t) {
    const url = new URL(smtpUrl);
    const secure = url.protocol === 'smtps:';
    t = nodemailer.createTransport({
      host: url.hostname,
      port: Number(url.port) || (secure ? 465 : 587),
      secure,
      auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    transports.set(smtpUrl, t);
  }
  return t;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** the reseller: sender name and reply-to */
  fromName: string;
  replyTo?: string | null;
}

export async function sendEmail(smtp: { url: string; from: string; timeoutMs: number }, mail: Mail): Promise<SendOutcome> {
  try {
    const info = await transport(smtp.url, smtp.timeoutMs).sendMail({
      from: { name: mail.fromName, address: smtp.from },
      to: mail.to,
      replyTo: mail.replyTo || undefined,
      subject: mail.subject,
      text: mail.text,
    });
    return { ok: true, answer: String(info.messageId ?? info.response ?? 'accepted'), status: 250 };
  } catch (err) {
    const code = (err as { responseCode?: number }).responseCode;
    // a 5xx SMTP reply is a permanent refusal; a 4xx or no reply at all may pass later
    return { ok: false, retry: code === undefined || code < 500, answer: (err as Error).message || String(err), status: code ?? null, reason: reasonOfSmtp(err) };
  }
}
