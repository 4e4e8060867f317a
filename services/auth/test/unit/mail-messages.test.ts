// The auth service's own e-mails in five languages (issue 13, docs/adr/0044-server-languages.md): English
// word for word as before, every catalogue with every English key, the same arguments and link tags, valid
// ICU; the Yoruba mails read in Yoruba; links and addresses are escaped in the HTML part.
import { readFileSync } from 'node:fs';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '@tuber/contracts';
import { AUTH_MAIL_CATALOGUES } from '../../src/mail/i18n/index.js';
import {
  PASSWORD_CHANGED_SUBJECT,
  SIGNUP_ATTEMPT_SUBJECT,
  passwordChangedMail,
  passwordResetMail,
  signupAttemptMail,
} from '../../src/mailer.js';

type Ast = ReturnType<IntlMessageFormat['getAst']>;
const LITERAL = 0;
function namesIn(elements: Ast, found = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type !== LITERAL && 'value' in element && typeof element.value === 'string') found.add(element.value);
    if ('children' in element) namesIn(element.children, found);
    if ('options' in element) for (const option of Object.values(element.options)) namesIn(option.value, found);
  }
  return found;
}

const links = { login: 'http://localhost:8080/login', forgot: 'http://localhost:8080/forgot-password' };

describe('auth e-mails in English', () => {
  it('say exactly what they said before languages came', () => {
    const reset = passwordResetMail('http://localhost:8080/reset-password#token=abc', 30);
    expect(reset.subject).toBe('Reset your Tuber Market password');
    expect(reset.text).toBe(
      // Issue 25: the branded layout's greeting and footer around the same sentences.
      [
        'Hello,',
        '',
        'Someone asked to reset the password of your Tuber Market account.',
        '',
        'Open this link to choose a new password (it works once, for 30 minutes):',
        'http://localhost:8080/reset-password#token=abc',
        '',
        'If it was not you, ignore this e-mail: your password stays as it is.',
        '',
        '--',
        'You get this e-mail because this address is used on Tuber Market.',
      ].join('\n'),
    );
    expect(reset.html).toContain(
      '<a href="http://localhost:8080/reset-password#token=abc">Create a new password</a> — the link works once, for 30 minutes.',
    );

    const attempt = signupAttemptMail(links);
    expect(attempt.subject).toBe(SIGNUP_ATTEMPT_SUBJECT);
    expect(SIGNUP_ATTEMPT_SUBJECT).toBe('Someone tried to sign up to Tuber Market with your e-mail address');
    expect(attempt.text).toBe(
      [
        'Hello,',
        '',
        'Someone tried to create a Tuber Market account with this e-mail address, which already has one. No new account was created and nothing changed in yours.',
        '',
        'If it was you, sign in: http://localhost:8080/login',
        'Forgot your password? Reset it: http://localhost:8080/forgot-password',
        '',
        'If it was not you, you can ignore this e-mail.',
        '',
        '--',
        'You get this e-mail because this address is used on Tuber Market.',
      ].join('\n'),
    );
    expect(attempt.html).toContain(
      'If it was you, <a href="http://localhost:8080/login">sign in</a>, or <a href="http://localhost:8080/forgot-password">reset your password</a> if you forgot it.',
    );

    const changed = passwordChangedMail({ forgot: links.forgot });
    expect(changed.subject).toBe(PASSWORD_CHANGED_SUBJECT);
    expect(PASSWORD_CHANGED_SUBJECT).toBe('Your Tuber Market password was changed');
    expect(changed.text).toBe(
      [
        'Hello,',
        '',
        'The password of your Tuber Market account was just changed with a reset link, and every other session was signed out.',
        '',
        'If it was you, there is nothing more to do.',
        '',
        'If it was not you, someone may be able to read your e-mail: secure your mailbox, then reset your password at once: http://localhost:8080/forgot-password',
        '',
        '--',
        'You get this e-mail because this address is used on Tuber Market.',
      ].join('\n'),
    );
  });

  it('escapes a link in the HTML part', () => {
    expect(passwordResetMail('http://x/"><script>', 5).html).not.toContain('<script>');
  });
});

describe('auth e-mail catalogues', () => {
  const english = AUTH_MAIL_CATALOGUES.en;
  for (const locale of LOCALES) {
    it(`${locale}: every English key, valid ICU, the English message's arguments and link tags`, () => {
      const catalogue = AUTH_MAIL_CATALOGUES[locale];
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
      for (const [key, message] of Object.entries(catalogue)) {
        const names = namesIn(new IntlMessageFormat(message, locale).getAst());
        const wanted = namesIn(new IntlMessageFormat(english[key as keyof typeof english], 'en').getAst());
        expect([...names].sort(), `${locale}: ${key}`).toEqual([...wanted].sort());
      }
    });
  }

  it('a review list beside the catalogues names the four translated languages', () => {
    const review = readFileSync(new URL('../../src/mail/i18n/REVIEW.md', import.meta.url), 'utf8');
    for (const locale of ['pcm', 'yo', 'ha', 'ig']) expect(review).toContain(`${locale}.ts`);
  });
});

describe('auth e-mails in other languages', () => {
  it('Yoruba, with tone marks, links kept', () => {
    const reset = passwordResetMail('http://localhost:8080/reset-password#token=abc', 30, 'yo');
    expect(reset.subject).toBe('Tún ọ̀rọ̀ aṣínà Tuber Market rẹ ṣe');
    expect(reset.text).toContain('fún ìṣẹ́jú 30):\nhttp://localhost:8080/reset-password#token=abc');
    expect(reset.html).toContain('<a href="http://localhost:8080/reset-password#token=abc">Ṣẹ̀dá ọ̀rọ̀ aṣínà tuntun</a>');
    expect(reset.html).toContain('lang="yo"');
    expect(signupAttemptMail(links, 'ha').html).toContain('<a href="http://localhost:8080/login">shiga</a>');
    expect(passwordChangedMail({ forgot: links.forgot }, 'ig').subject).toBe('Agbanweela okwuntughe Tuber Market gị');
  });
});
