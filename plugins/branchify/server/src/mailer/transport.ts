import nodemailerProvider from '@strapi/provider-email-nodemailer';
import { env } from '@branchify/shared/node';
import type { MailerSettings } from './settings';

interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  verify(): Promise<void>;
  close(): void;
}

const fromHeader = (s: MailerSettings) => (s.from_name ? `"${s.from_name.replace(/["\\\r\n]/g, '')}" <${s.from_address}>` : s.from_address);

/**
 * Strapi's nodemailer provider, configured from the admin's settings at the moment of sending
 *: a settings change takes effect on the next mail, on every node.
 * `ssl` is implicit TLS (465), `tls` requires STARTTLS, `none` sends in the clear.
 */
export const openTransport = (settings: MailerSettings): MailTransport => {
  const timeout = env().MAIL_SMTP_TIMEOUT_MS;
  // Typed loosely: the provider's declaration takes nodemailer's union of transport options.
  const smtpOptions = {
    host: settings.host,
    port: settings.port,
    secure: settings.encryption === 'ssl',
    requireTLS: settings.encryption === 'tls',
    ignoreTLS: settings.encryption === 'none',
    auth: settings.username ? { user: settings.username, pass: settings.password ?? '' } : undefined,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  };
  const provider = nodemailerProvider.init(smtpOptions as unknown as Parameters<typeof nodemailerProvider.init>[0], {
    defaultFrom: fromHeader(settings),
    defaultReplyTo: settings.from_address,
  });
  return {
    async send(mail) {
      await provider.send({ to: mail.to, subject: mail.subject, html: mail.html, text: mail.text });
    },
    async verify() {
      await provider.verify();
    },
    close() {
      provider.close();
    },
  };
};

/** Which form field an SMTP failure is about, so the admin sees it under the right input. */
export const smtpErrorField = (error: unknown): string => {
  const code = (error as { code?: string })?.code ?? '';
  if (code === 'EAUTH' || code === 'ENOAUTH') return 'password';
  if (code === 'ETLS' || code === 'EREQUIRETLS') return 'encryption';
  if (['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code)) return 'host';
  return 'host';
};

/** The server's own sentence (e.g. `Invalid login: 535 Authentication failed`), without a stack. */
export const smtpErrorMessage = (error: unknown): string => {
  const e = error as { message?: string; response?: string };
  return (e?.message || e?.response || 'The SMTP server refused the connection.').split('\n')[0]!.slice(0, 500);
};
