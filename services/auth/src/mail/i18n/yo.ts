// Yoruba, with tone marks. NATIVE REVIEW PENDING (REVIEW.md): written for the product by the team.
import type { AuthMailMessages } from './en.js';

export const yo: AuthMailMessages = {
  reset_subject: 'Tún ọ̀rọ̀ aṣínà Tuber Market rẹ ṣe',
  reset_intro: 'Ẹnìkan béèrè láti tún ọ̀rọ̀ aṣínà àkántì Tuber Market rẹ ṣe.',
  reset_open: 'Ṣí líǹkì yìí láti yan ọ̀rọ̀ aṣínà tuntun (ẹ̀ẹ̀kan ṣoṣo ni ó ń ṣiṣẹ́, fún ìṣẹ́jú {minutes}):',
  reset_link_html: '<link>Ṣẹ̀dá ọ̀rọ̀ aṣínà tuntun</link> — ẹ̀ẹ̀kan ṣoṣo ni líǹkì náà ń ṣiṣẹ́, fún ìṣẹ́jú {minutes}.',
  reset_ignore: 'Tí kì í bá ṣe ìwọ, fojú fo í-meèlì yìí: ọ̀rọ̀ aṣínà rẹ yóò wà bí ó ti wà.',
  attempt_subject: 'Ẹnìkan gbìyànjú láti forúkọsílẹ̀ lórí Tuber Market pẹ̀lú àdírẹ́sì í-meèlì rẹ',
  attempt_intro: 'Ẹnìkan gbìyànjú láti ṣí àkántì Tuber Market pẹ̀lú àdírẹ́sì í-meèlì yìí, tí ó ti ní àkántì tẹ́lẹ̀.',
  attempt_nothing: 'A kò ṣí àkántì tuntun kankan, kò sì sí ohun tí ó yípadà nínú tìrẹ.',
  attempt_sign_in: 'Tí ó bá jẹ́ ìwọ, wọlé: {link}',
  attempt_forgot: 'Ṣé o gbàgbé ọ̀rọ̀ aṣínà rẹ? Tún un ṣe: {link}',
  attempt_links_html: 'Tí ó bá jẹ́ ìwọ, <signin>wọlé</signin>, tàbí <reset>tún ọ̀rọ̀ aṣínà rẹ ṣe</reset> tí o bá ti gbàgbé rẹ̀.',
  attempt_ignore: 'Tí kì í bá ṣe ìwọ, o lè fojú fo í-meèlì yìí.',
  changed_subject: 'A ti yí ọ̀rọ̀ aṣínà Tuber Market rẹ padà',
  changed_intro: 'A ṣẹ̀ṣẹ̀ fi líǹkì àtúnṣe yí ọ̀rọ̀ aṣínà àkántì Tuber Market rẹ padà, a sì ti mú gbogbo ìwọlé mìíràn jáde.',
  changed_fine: 'Tí ó bá jẹ́ ìwọ, kò sí ohun mìíràn láti ṣe.',
  changed_not_you:
    'Tí kì í bá ṣe ìwọ, ẹnìkan lè máa ka í-meèlì rẹ: dáàbò bo àpótí í-meèlì rẹ, lẹ́yìn náà tún ọ̀rọ̀ aṣínà rẹ ṣe lẹ́sẹ̀kẹsẹ̀: {link}',
  changed_not_you_html:
    'Tí kì í bá ṣe ìwọ, ẹnìkan lè máa ka í-meèlì rẹ: dáàbò bo àpótí í-meèlì rẹ, lẹ́yìn náà <reset>tún ọ̀rọ̀ aṣínà rẹ ṣe</reset> lẹ́sẹ̀kẹsẹ̀.',
  greeting: "Ẹ n lẹ́ o,",
  footer: "O gba í-meèlì yìí nítorí pé a lo àdírẹ́sì yìí lórí Tuber Market.",
};
