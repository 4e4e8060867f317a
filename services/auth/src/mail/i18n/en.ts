// The auth service's own e-mails in English: the product's copy, and the fallback for every other language.
// ICU messages (intl-messageformat); <tag>…</tag> marks a link in the HTML part. Every other catalogue has
// exactly these keys (a type error otherwise, and services/auth/test/unit/mail-messages.test.ts); REVIEW.md
// beside this file lists what waits for a native speaker's review.
export const en = {
  reset_subject: 'Reset your Tuber Market password',
  reset_intro: 'Someone asked to reset the password of your Tuber Market account.',
  reset_open: 'Open this link to choose a new password (it works once, for {minutes} minutes):',
  reset_link_html: '<link>Create a new password</link> — the link works once, for {minutes} minutes.',
  reset_ignore: 'If it was not you, ignore this e-mail: your password stays as it is.',
  attempt_subject: 'Someone tried to sign up to Tuber Market with your e-mail address',
  attempt_intro: 'Someone tried to create a Tuber Market account with this e-mail address, which already has one.',
  attempt_nothing: 'No new account was created and nothing changed in yours.',
  attempt_sign_in: 'If it was you, sign in: {link}',
  attempt_forgot: 'Forgot your password? Reset it: {link}',
  attempt_links_html: 'If it was you, <signin>sign in</signin>, or <reset>reset your password</reset> if you forgot it.',
  attempt_ignore: 'If it was not you, you can ignore this e-mail.',
  changed_subject: 'Your Tuber Market password was changed',
  changed_intro: 'The password of your Tuber Market account was just changed with a reset link, and every other session was signed out.',
  changed_fine: 'If it was you, there is nothing more to do.',
  changed_not_you:
    'If it was not you, someone may be able to read your e-mail: secure your mailbox, then reset your password at once: {link}',
  changed_not_you_html:
    'If it was not you, someone may be able to read your e-mail: secure your mailbox, then <reset>reset your password</reset> at once.',
  greeting: "Hello,",
  footer: "You get this e-mail because this address is used on Tuber Market.",
} as const;

export type AuthMailMessages = Record<keyof typeof en, string>;
