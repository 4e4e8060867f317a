// The landing page ("/"): hero, about, Our Solution. Exposed to the shell as landing/LandingPage.
import { Link } from '@tuber/ui/router';
import { buttonClass, useSession } from '@tuber/ui';
import { HeroArt } from '../landing/HeroArt.js';
import { ChartIcon, GlobeIcon, ShieldIcon, SproutIcon } from '../landing/icons.js';
import styles from '../landing/landing.module.css';

const tubers = ['yam', 'cassava', 'potato', 'sweet potato', 'tumeric', 'garlic', 'ginger'];

const forFarmers = [
  {
    title: 'Sell Your Crops',
    text: 'List your harvest with photos and nutrition facts in minutes, and let buyers nearby find it the same day.',
    Icon: SproutIcon,
  },
  {
    title: 'Market Expansion',
    text: 'Reach beyond your usual market: local households, restaurants and traders, and buyers from abroad.',
    Icon: GlobeIcon,
  },
  {
    title: 'Sales Management',
    text: 'Keep your listings, orders and payments in one simple dashboard instead of scattered notebooks.',
    Icon: ChartIcon,
  },
  {
    title: 'Secure Transactions',
    text: 'Deal with signed-up buyers whose contact details are on record, so every sale is safe and traceable.',
    Icon: ShieldIcon,
  },
];

export default function LandingPage() {
  const session = useSession();
  // While the session is still being checked, a guest's buttons show at once (most visitors here are
  // guests): appearing later they pushed the hero art down (layout shift, docs/adr/0025).
  const guest = session.status === 'anonymous' || (session.status === 'loading' && session.expected !== 'signed-in');
  return (
    <>
      <section className={styles.hero}>
        <div className={styles.heroInner}>
          <div>
            <span className={styles.eyebrow}>Farm to table, around the city</span>
            <h1 className={styles.headline}>Fresh from Earth, available within your reach</h1>
            <p className={styles.subtitle}>
              Yam, cassava, potatoes, ginger and more: quality tuber crops sourced directly from nearby farmers, at the price the farmer
              sets.
            </p>
            {guest && (
              // Join now and Login are in the shell's header; here the two ways in, straight away.
              <div className={styles.actions}>
                <Link to="/signupfarmer" className={buttonClass('primary')}>
                  Join as a farmer
                </Link>
                <Link to="/signupbuyer" className={buttonClass('secondary')}>
                  Sign-up as a buyer
                </Link>
              </div>
            )}
          </div>
          <div className={styles.art}>
            <HeroArt />
          </div>
        </div>
      </section>

      <section className={`${styles.section} ${styles.about}`} aria-labelledby="about-title">
        <div className={`${styles.sectionInner} ${styles.aboutGrid}`}>
          <div>
            <h2 id="about-title" className={styles.sectionTitle}>
              About Tuber Market
            </h2>
            <p className={styles.lead}>
              Tuber Market connects the farmers who grow the city&rsquo;s tubers with the people who cook, sell and serve them. Farmers list
              what they have harvested; buyers browse every listing, compare prices and call or e-mail the farmer directly.
            </p>
            <p className={styles.lead}>
              No middlemen between the field and your kitchen: fresher crops for buyers, a fairer share for the farmers who grow them.
            </p>
          </div>
          <div className={styles.crops}>
            <h3 className={styles.cropsTitle}>Crops you will find here</h3>
            <ul className={styles.cropList}>
              {tubers.map((tuber) => (
                <li key={tuber} className={styles.crop}>
                  {tuber}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </section>

      <section className={styles.section} aria-labelledby="solution-title">
        <div className={styles.sectionInner}>
          <h2 id="solution-title" className={styles.sectionTitle}>
            Our Solution
          </h2>
          <p className={styles.lead}>Everything a farmer needs to sell from the farm gate to the whole city.</p>
          <h3 className={styles.audience}>For Farmers</h3>
          <ul className={styles.cards}>
            {forFarmers.map(({ title, text, Icon }) => (
              <li key={title} className={styles.card}>
                <span className={styles.cardIcon}>
                  <Icon />
                </span>
                <h4 className={styles.cardTitle}>{title}</h4>
                <p className={styles.cardText}>{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <footer className={styles.footer}>© {new Date().getFullYear()} Tuber Market · Fresh tubers from nearby farms</footer>
    </>
  );
}
