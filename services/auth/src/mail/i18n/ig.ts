// Igbo. NATIVE REVIEW PENDING (REVIEW.md): written for the product by the team.
import type { AuthMailMessages } from './en.js';

export const ig: AuthMailMessages = {
  reset_subject: 'Dozie okwuntughe Tuber Market gị',
  reset_intro: 'Otu onye rịọrọ ka edozie okwuntughe akaụntụ Tuber Market gị.',
  reset_open: 'Meghee njikọ a ka ị họrọ okwuntughe ọhụrụ (ọ na-arụ ọrụ otu ugboro, maka nkeji {minutes}):',
  reset_link_html: '<link>Mepụta okwuntughe ọhụrụ</link> — njikọ ahụ na-arụ ọrụ otu ugboro, maka nkeji {minutes}.',
  reset_ignore: 'Ọ bụrụ na ọ bụghị gị, leghara email a anya: okwuntughe gị ga-anọgide otu ọ dị.',
  attempt_subject: 'Otu onye nwara iji adreesị email gị debanye aha na Tuber Market',
  attempt_intro: 'Otu onye nwara imepe akaụntụ Tuber Market site na adreesị email a, nke nweburu akaụntụ.',
  attempt_nothing: 'Emepeghị akaụntụ ọhụrụ, ọ dịghịkwa ihe gbanwere na nke gị.',
  attempt_sign_in: 'Ọ bụrụ na ọ bụ gị, banye: {link}',
  attempt_forgot: 'Ị chefuru okwuntughe gị? Dozie ya: {link}',
  attempt_links_html: 'Ọ bụrụ na ọ bụ gị, <signin>banye</signin>, ma ọ bụ <reset>dozie okwuntughe gị</reset> ma ọ bụrụ na i chefuru ya.',
  attempt_ignore: 'Ọ bụrụ na ọ bụghị gị, ị nwere ike ileghara email a anya.',
  changed_subject: 'Agbanweela okwuntughe Tuber Market gị',
  changed_intro: 'E ji njikọ ndozi gbanwee okwuntughe akaụntụ Tuber Market gị ugbu a, ewepụkwala mbanye ndị ọzọ niile.',
  changed_fine: 'Ọ bụrụ na ọ bụ gị, ọ dịghị ihe ọzọ ị ga-eme.',
  changed_not_you: 'Ọ bụrụ na ọ bụghị gị, mmadụ nwere ike na-agụ email gị: chekwaa igbe email gị, wee dozie okwuntughe gị ozugbo: {link}',
  changed_not_you_html:
    'Ọ bụrụ na ọ bụghị gị, mmadụ nwere ike na-agụ email gị: chekwaa igbe email gị, wee <reset>dozie okwuntughe gị</reset> ozugbo.',
  greeting: "Ndewo,",
  footer: "Ị na-enweta ozi-e a n’ihi na e jiri adreesị a mee ihe na Tuber Market.",
};
