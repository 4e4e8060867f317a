// DATA: the local names of the seven tubers, used as search synonyms (ADR 0029). Reviewed by
// test/unit/search-terms.test.ts. Local names of the seven tubers, used as search synonyms: a product of that tuber type is found by any of them. One word per entry (a local name of several words is left out: its words would match other tubers), stored as written; the search normalises it (lower case, accents and tone marks removed). One word names one tuber only (test/unit/search-terms.test.ts). Languages with no entry for a tuber are listed under gaps: add a word only with a source that gives it.
import type { TuberType } from '@tuber/contracts';

export type SynonymLanguage = 'yoruba' | 'hausa' | 'igbo' | 'pidgin' | 'english';

export interface Synonym {
  word: string;
  language: SynonymLanguage;
  /** A key of SYNONYM_SOURCES. */
  source: keyof typeof SYNONYM_SOURCES;
}

/** Published references the words were checked against. */
export const SYNONYM_SOURCES = {
  'dalziel-1916': 'J. M. Dalziel, A Hausa Botanical Vocabulary, London: T. Fisher Unwin, 1916 (Project Gutenberg eBook #74245)',
  'blench-2007': 'Roger Blench, Hausa Names for Plants and Trees, 2nd edition (draft for comment), Cambridge: Mallam Dendo, 2007',
  'abraham-1962': 'R. C. Abraham, Dictionary of Modern Hausa, London: University of London Press, 1962',
  'cms-1913': 'A Dictionary of the Yoruba Language, Lagos: Church Missionary Society Bookshop, 1913 (Oxford University Press reprints)',
  'abraham-1958': 'R. C. Abraham, Dictionary of Modern Yoruba, London: University of London Press, 1958',
  'williamson-1972': 'Kay Williamson (ed.), Igbo-English Dictionary, based on the Onitsha dialect, Benin City: Ethiope Publishing, 1972',
  'echeruo-1998': 'Michael J. C. Echeruo, Igbo-English Dictionary, New Haven: Yale University Press, 1998',
  'faraclas-1996': 'Nicholas G. Faraclas, Nigerian Pidgin (Descriptive Grammars), London: Routledge, 1996',
  'burkill-1985':
    'H. M. Burkill, The Useful Plants of West Tropical Africa, 2nd edition, Kew: Royal Botanic Gardens, 1985- (vernacular names by language)',
} as const;

export const TUBER_SYNONYMS: Record<TuberType, Synonym[]> = {
  yam: [
    {
      word: 'isu',
      language: 'yoruba',
      source: 'cms-1913',
    },
    {
      word: 'doya',
      language: 'hausa',
      source: 'dalziel-1916',
    },
    {
      word: 'ji',
      language: 'igbo',
      source: 'williamson-1972',
    },
    {
      word: 'yams',
      language: 'pidgin',
      source: 'faraclas-1996',
    },
  ],
  cassava: [
    {
      word: 'gbaguda',
      language: 'yoruba',
      source: 'abraham-1958',
    },
    {
      word: 'ege',
      language: 'yoruba',
      source: 'cms-1913',
    },
    {
      word: 'rogo',
      language: 'hausa',
      source: 'dalziel-1916',
    },
    {
      word: 'akpu',
      language: 'igbo',
      source: 'echeruo-1998',
    },
    {
      word: 'jigbo',
      language: 'igbo',
      source: 'williamson-1972',
    },
    {
      word: 'kasava',
      language: 'pidgin',
      source: 'faraclas-1996',
    },
    {
      word: 'manioc',
      language: 'english',
      source: 'burkill-1985',
    },
  ],
  potato: [
    {
      word: 'irish',
      language: 'pidgin',
      source: 'faraclas-1996',
    },
  ],
  'sweet potato': [
    {
      word: 'anamo',
      language: 'yoruba',
      source: 'abraham-1958',
    },
    {
      word: 'odunkun',
      language: 'yoruba',
      source: 'cms-1913',
    },
    {
      word: 'dankali',
      language: 'hausa',
      source: 'dalziel-1916',
    },
  ],
  tumeric: [
    {
      word: 'turmeric',
      language: 'english',
      source: 'burkill-1985',
    },
    {
      word: 'gangamau',
      language: 'hausa',
      source: 'blench-2007',
    },
  ],
  garlic: [
    {
      word: 'ayu',
      language: 'yoruba',
      source: 'abraham-1958',
    },
    {
      word: 'tafarnuwa',
      language: 'hausa',
      source: 'abraham-1962',
    },
    {
      word: 'galik',
      language: 'pidgin',
      source: 'faraclas-1996',
    },
  ],
  ginger: [
    {
      word: 'atale',
      language: 'yoruba',
      source: 'abraham-1958',
    },
    {
      word: 'citta',
      language: 'hausa',
      source: 'dalziel-1916',
    },
    {
      word: 'chitta',
      language: 'hausa',
      source: 'blench-2007',
    },
    {
      word: 'jinja',
      language: 'pidgin',
      source: 'faraclas-1996',
    },
  ],
};

/** What is missing, and why (a phrase whose words name another tuber is left out). */
export const SYNONYM_GAPS: Partial<Record<TuberType, string>> = {
  potato:
    "Yoruba (ọ̀dùnkún òyìnbó), Hausa (dankalin Turawa) and Igbo names are phrases whose words name sweet potato; searched as 'potato' or 'irish'",
  'sweet potato': "Igbo and Pidgin: no single-word name found in the sources; 'sweet potato' itself is what markets say",
  tumeric: 'Yoruba (ata ile pupa), Igbo: phrases or unconfirmed',
  garlic: 'Igbo: no name confirmed in the sources',
  ginger: 'Igbo: no name confirmed in the sources',
};
