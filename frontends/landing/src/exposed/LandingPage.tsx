// The landing page ("/"): hero, about, Our Solution. Exposed to the shell as landing/LandingPage.
import { Link } from '@tuber/shell-contract/router';
import { useSession } from '@tuber/shell-contract';
import { buttonClass, useT } from '@tuber/ui';
import { landingCatalogue } from '../i18n/catalogue.js';
import { HeroArt } from '../landing/HeroArt.js';
import { ChartIcon, GlobeIcon, ShieldIcon, SproutIcon } from '../landing/icons.js';
import { PriceLinks, useShellServesPrices } from '../landing/PriceLinks.js';
import styles from '../landing/landing.module.css';
import { TUBER_SLUGS } from '../prices/priceView.js';

const forFarmers = [
  { card: 'sell', Icon: SproutIcon },
  { card: 'market', Icon: GlobeIcon },
  { card: 'sales', Icon: ChartIcon },
  { card: 'secure', Icon: ShieldIcon },
];

export default function LandingPage() {
  const session = useSession();
  const t = useT(landingCatalogue);
  const pricesServed = useShellServesPrices();
  // While the session is still being checked, a guest's buttons show at once (most visitors here are
  // guests): appearing later they pushed the hero art down (layout shift, docs/adr/0025).
  const guest = session.status === 'anonymous' || (session.status === 'loading' && session.expected !== 'signed-in');
  return (
    <>
      <section className={styles.hero}>
        <div className={styles.heroInner}>
          <div>
            <span className={styles.eyebrow}>{t('landing.hero.eyebrow')}</span>
            <h1 className={styles.headline}>{t('landing.hero.title')}</h1>
            <p className={styles.subtitle}>{t('landing.hero.subtitle')}</p>
            {guest && (
              // Join now and Login are in the shell's header; here the two ways in, straight away.
              <div className={styles.actions}>
                <Link to="/signupfarmer" className={buttonClass('primary')}>
                  {t('landing.hero.join-farmer')}
                </Link>
                <Link to="/signupbuyer" className={buttonClass('secondary')}>
                  {t('landing.hero.signup-buyer')}
                </Link>
              </div>
            )}
          </div>
          <div className={styles.art}>
            <HeroArt title={t('landing.hero.art')} />
          </div>
        </div>
      </section>

      <section className={`${styles.section} ${styles.about}`} aria-labelledby="about-title">
        <div className={`${styles.sectionInner} ${styles.aboutGrid}`}>
          <div>
            <h2 id="about-title" className={styles.sectionTitle}>
              {t('landing.about.title')}
            </h2>
            <p className={styles.lead}>{t('landing.about.connects')}</p>
            <p className={styles.lead}>{t('landing.about.no-middlemen')}</p>
          </div>
          <div className={styles.crops}>
            <h3 className={styles.cropsTitle}>{t('landing.crops.title')}</h3>
            <ul className={styles.cropList}>
              {TUBER_SLUGS.map((tuber) => (
                <li key={tuber} className={styles.crop}>
                  {t(`tuber.${tuber}`)}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </section>

      {pricesServed && <PriceLinks />}

      <section className={styles.section} aria-labelledby="solution-title">
        <div className={styles.sectionInner}>
          <h2 id="solution-title" className={styles.sectionTitle}>
            {t('landing.solution.title')}
          </h2>
          <p className={styles.lead}>{t('landing.solution.lead')}</p>
          <h3 className={styles.audience}>{t('landing.solution.for-farmers')}</h3>
          <ul className={styles.cards}>
            {forFarmers.map(({ card, Icon }) => (
              <li key={card} className={styles.card}>
                <span className={styles.cardIcon}>
                  <Icon />
                </span>
                <h4 className={styles.cardTitle}>{t(`landing.card.${card}.title`)}</h4>
                <p className={styles.cardText}>{t(`landing.card.${card}.text`)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <footer className={styles.footer}>{t('landing.footer', { year: String(new Date().getFullYear()) })}</footer>
    </>
  );
}
