// Hausa. NATIVE REVIEW PENDING (REVIEW.md): written for the product by the team.
import type { AuthMailMessages } from './en.js';

export const ha: AuthMailMessages = {
  reset_subject: 'Sake saita kalmar sirrinka ta Tuber Market',
  reset_intro: 'Wani ya nemi a sake saita kalmar sirrin asusunka na Tuber Market.',
  reset_open: 'Buɗe wannan hanyar haɗi don zaɓar sabuwar kalmar sirri (tana aiki sau ɗaya, na minti {minutes}):',
  reset_link_html: '<link>Ƙirƙiri sabuwar kalmar sirri</link> — hanyar haɗin tana aiki sau ɗaya, na minti {minutes}.',
  reset_ignore: 'Idan ba kai ba ne, ka yi watsi da wannan imel: kalmar sirrinka za ta zauna yadda take.',
  attempt_subject: 'Wani ya yi ƙoƙarin yin rajista a Tuber Market da adireshin imel ɗinka',
  attempt_intro: 'Wani ya yi ƙoƙarin buɗe asusun Tuber Market da wannan adireshin imel, wanda tuni yake da asusu.',
  attempt_nothing: 'Ba a buɗe sabon asusu ba kuma babu abin da ya canza a naka.',
  attempt_sign_in: 'Idan kai ne, shiga: {link}',
  attempt_forgot: 'Ka manta kalmar sirrinka? Sake saita ta: {link}',
  attempt_links_html: 'Idan kai ne, <signin>shiga</signin>, ko <reset>sake saita kalmar sirrinka</reset> idan ka manta ta.',
  attempt_ignore: 'Idan ba kai ba ne, za ka iya yin watsi da wannan imel.',
  changed_subject: 'An canza kalmar sirrinka ta Tuber Market',
  changed_intro: 'Yanzu an canza kalmar sirrin asusunka na Tuber Market da hanyar sake saitawa, kuma an fitar da duk sauran zaman shiga.',
  changed_fine: 'Idan kai ne, babu wani abin da ya rage ka yi.',
  changed_not_you:
    'Idan ba kai ba ne, wani zai iya karanta imel ɗinka: ka tsare akwatin imel ɗinka, sannan ka sake saita kalmar sirrinka nan take: {link}',
  changed_not_you_html:
    'Idan ba kai ba ne, wani zai iya karanta imel ɗinka: ka tsare akwatin imel ɗinka, sannan ka <reset>sake saita kalmar sirrinka</reset> nan take.',
  greeting: "Sannu,",
  footer: "Kana samun wannan imel ne saboda an yi amfani da wannan adireshin a Tuber Market.",
};
