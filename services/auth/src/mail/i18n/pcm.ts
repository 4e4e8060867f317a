// Nigerian Pidgin. NATIVE REVIEW PENDING (REVIEW.md): written for the product by the team.
import type { AuthMailMessages } from './en.js';

export const pcm: AuthMailMessages = {
  reset_subject: 'Change your Tuber Market password',
  reset_intro: 'Somebody ask make we change the password of your Tuber Market account.',
  reset_open: 'Open dis link make you choose new password (e go work one time, for {minutes} minutes):',
  reset_link_html: '<link>Make new password</link> — the link go work one time, for {minutes} minutes.',
  reset_ignore: 'If no be you, forget dis e-mail: your password go remain as e dey.',
  attempt_subject: 'Somebody try open Tuber Market account with your e-mail address',
  attempt_intro: 'Somebody try open Tuber Market account with dis e-mail address, but e don already get account.',
  attempt_nothing: 'We no open any new account and nothing change for your own.',
  attempt_sign_in: 'If na you, login: {link}',
  attempt_forgot: 'You don forget your password? Change am: {link}',
  attempt_links_html: 'If na you, <signin>login</signin>, or <reset>change your password</reset> if you don forget am.',
  attempt_ignore: 'If no be you, you fit forget dis e-mail.',
  changed_subject: 'Dem don change your Tuber Market password',
  changed_intro: 'Dem just use reset link change the password of your Tuber Market account, and we don logout all the other sessions.',
  changed_fine: 'If na you, nothing remain wey you go do.',
  changed_not_you: 'If no be you, somebody fit dey read your e-mail: secure your mailbox, then change your password sharp sharp: {link}',
  changed_not_you_html:
    'If no be you, somebody fit dey read your e-mail: secure your mailbox, then <reset>change your password</reset> sharp sharp.',
  greeting: "How far,",
  footer: "You dey get dis e-mail because dem use dis address for Tuber Market.",
};
