// Mail the auth service sends itself (Keycloak sends the verification mail).
import nodemailer from 'nodemailer';

export interface Mailer {
  sendPasswordReset(to: string, link: string, validMinutes: number): Promise<void>;
  /** Someone tried to create an account with an address that already has one. */
  sendSignupAttempt(to: string, links: { login: string; forgot: string }): Promise<void>;
  /** The account's password was just changed with a reset link. */
  sendPasswordChanged(to: string, links: { forgot: string }): Promise<void>;
}

export const SIGNUP_ATTEMPT_SUBJECT = 'Someone tried to sign up to Tuber Market with your e-mail address';
export const PASSWORD_CHANGED_SUBJECT = 'Your Tuber Market password was changed';

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
    async sendSignupAttempt(to, links) {
      await transport.sendMail({
        from: options.from,
        to,
        subject: SIGNUP_ATTEMPT_SUBJECT,
        text: [
          'Someone tried to create a Tuber Market account with this e-mail address, which already has one.',
          'No new account was created and nothing changed in yours.',
          '',
          `If it was you, sign in: ${links.login}`,
          `Forgot your password? Reset it: ${links.forgot}`,
          '',
          'If it was not you, you can ignore this e-mail.',
        ].join('\n'),
        html: `<p>Someone tried to create a Tuber Market account with this e-mail address, which already has one.
No new account was created and nothing changed in yours.</p>
<p>If it was you, <a href="${links.login}">sign in</a>, or <a href="${links.forgot}">reset your password</a> if you forgot it.</p>
<p>If it was not you, you can ignore this e-mail.</p>`,
      });
    },
    async sendPasswordChanged(to, links) {
      await transport.sendMail({
        from: options.from,
        to,
        subject: PASSWORD_CHANGED_SUBJECT,
        text: [
          'The password of your Tuber Market account was just changed with a reset link, and every other session was signed out.',
          '',
          'If it was you, there is nothing more to do.',
          `If it was not you, someone may be able to read your e-mail: secure your mailbox, then reset your password at once: ${links.forgot}`,
        ].join('\n'),
        html: `<p>The password of your Tuber Market account was just changed with a reset link, and every other session was signed out.</p>
<p>If it was you, there is nothing more to do.</p>
<p>If it was not you, someone may be able to read your e-mail: secure your mailbox, then
<a href="${links.forgot}">reset your password</a> at once.</p>`,
      });
    },
  };
}
