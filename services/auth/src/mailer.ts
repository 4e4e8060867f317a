// Mail the auth service sends itself (Keycloak sends the verification mail).
import nodemailer from 'nodemailer';

export interface Mailer {
  sendPasswordReset(to: string, link: string, validMinutes: number): Promise<void>;
}

export function smtpMailer(options: { host: string; port: number; from: string }): Mailer {
  const transport = nodemailer.createTransport({ host: options.host, port: options.port, secure: false, ignoreTLS: true });
  return {
    async sendPasswordReset(to, link, validMinutes) {
      await transport.sendMail({
        from: options.from,
        to,
        subject: 'Reset your Tuber Market password',
        text: [
          'Someone asked to reset the password of your Tuber Market account.',
          `Open this link to choose a new password (it works once, for ${validMinutes} minutes):`,
          link,
          '',
          'If it was not you, ignore this e-mail: your password stays as it is.',
        ].join('\n'),
        html: `<p>Someone asked to reset the password of your Tuber Market account.</p>
<p><a href="${link}">Create a new password</a> — the link works once, for ${validMinutes} minutes.</p>
<p>If it was not you, ignore this e-mail: your password stays as it is.</p>`,
      });
    },
  };
}
