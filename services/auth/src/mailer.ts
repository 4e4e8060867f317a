// Mail the auth service sends itself (Keycloak sends the verification mail), in the recipient's language
// (issue 13: en, pcm, yo, ha, ig — the account's Keycloak locale attribute; English when it has none,
// docs/adr/0044-server-languages.md). The words are in mail/i18n/.
import { DEFAULT_LOCALE, type Locale } from '@tuber/contracts';
import { brandedHtml, brandedText, type BrandedMail } from '@tuber/kit';
import nodemailer from 'nodemailer';
import { say } from './mail/i18n/index.js';

export interface Mailer {
  sendPasswordReset(to: string, link: string, validMinutes: number, locale?: Locale): Promise<void>;
  /** Someone tried to create an account with an address that already has one. */
  sendSignupAttempt(to: string, links: { login: string; forgot: string }, locale?: Locale): Promise<void>;
  /** The account's password was just changed with a reset link. */
  sendPasswordChanged(to: string, links: { forgot: string }, locale?: Locale): Promise<void>;
}

export const SIGNUP_ATTEMPT_SUBJECT = say('en', 'attempt_subject');
export const PASSWORD_CHANGED_SUBJECT = say('en', 'changed_subject');

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** A <tag>…</tag> of a message as a link to `href` (the words are the catalogue's; escaped all the same). */
const linkTo = (href: string) => (chunks: string[]) => `<a href="${escape(href)}">${escape(chunks.join(''))}</a>`;
/** A message for the HTML part: its words escaped, its <tag>s made links. */
const sayHtml = (locale: Locale, key: Parameters<typeof say>[1], values: Parameters<typeof say>[2] = {}) => {
  const safe = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? escape(v) : v]));
  return say(locale, key, safe);
};

/** The branded layout (the kit's, issue 25) around a mail's paragraphs: text, or a sentence with links. */
function branded(locale: Locale, subject: string, paragraphs: BrandedMail['paragraphs']): MailContent {
  const mail: BrandedMail = { lang: locale, greeting: say(locale, 'greeting'), paragraphs, footer: say(locale, 'footer') };
  return { subject, text: brandedText(mail), html: brandedHtml(mail) };
}

export function passwordResetMail(link: string, validMinutes: number, locale: Locale = DEFAULT_LOCALE): MailContent {
  const minutes = String(validMinutes);
  return branded(locale, say(locale, 'reset_subject'), [
    say(locale, 'reset_intro'),
    { html: sayHtml(locale, 'reset_link_html', { minutes, link: linkTo(link) }), text: `${say(locale, 'reset_open', { minutes })}\n${link}` },
    say(locale, 'reset_ignore'),
  ]);
}

export function signupAttemptMail(links: { login: string; forgot: string }, locale: Locale = DEFAULT_LOCALE): MailContent {
  return branded(locale, say(locale, 'attempt_subject'), [
    `${say(locale, 'attempt_intro')} ${say(locale, 'attempt_nothing')}`,
    {
      html: sayHtml(locale, 'attempt_links_html', { signin: linkTo(links.login), reset: linkTo(links.forgot) }),
      text: `${say(locale, 'attempt_sign_in', { link: links.login })}\n${say(locale, 'attempt_forgot', { link: links.forgot })}`,
    },
    say(locale, 'attempt_ignore'),
  ]);
}

export function passwordChangedMail(links: { forgot: string }, locale: Locale = DEFAULT_LOCALE): MailContent {
  return branded(locale, say(locale, 'changed_subject'), [
    say(locale, 'changed_intro'),
    say(locale, 'changed_fine'),
    { html: sayHtml(locale, 'changed_not_you_html', { reset: linkTo(links.forgot) }), text: say(locale, 'changed_not_you', { link: links.forgot }) },
  ]);
}

export function smtpMailer(options: { host: string; port: number; from: string }): Mailer {
  const transport = nodemailer.createTransport({ host: options.host, port: options.port, secure: false, ignoreTLS: true });
  const send = async (to: string, mail: MailContent) => {
    await transport.sendMail({ from: options.from, to, ...mail });
  };
  return {
    sendPasswordReset: (to, link, validMinutes, locale) => send(to, passwordResetMail(link, validMinutes, locale)),
    sendSignupAttempt: (to, links, locale) => send(to, signupAttemptMail(links, locale)),
    sendPasswordChanged: (to, links, locale) => send(to, passwordChangedMail(links, locale)),
  };
}
