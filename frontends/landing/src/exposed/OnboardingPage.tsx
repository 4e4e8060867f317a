// /onboarding (guests only): choose how to join. Exposed as landing/OnboardingPage.
import { Link } from '@tuber/shell-contract/router';
import { buttonClass, useT } from '@tuber/ui';
import { landingCatalogue } from '../i18n/catalogue.js';
import styles from '../account/forms.module.css';

export default function OnboardingPage() {
  const t = useT(landingCatalogue);
  return (
    <div className={styles.page}>
      <section className={styles.card} aria-labelledby="onboarding-title">
        <h1 id="onboarding-title" className={styles.title}>
          {t('onboarding.title')}
        </h1>
        <p className={styles.text}>{t('onboarding.text')}</p>
        <div className={styles.choices}>
          <div className={styles.choice}>
            <h2 className={styles.choiceTitle}>{t('onboarding.grow.title')}</h2>
            <p className={styles.text}>{t('onboarding.grow.text')}</p>
            <Link to="/signupfarmer" className={buttonClass('primary')}>
              {t('landing.hero.join-farmer')}
            </Link>
          </div>
          <div className={styles.choice}>
            <h2 className={styles.choiceTitle}>{t('onboarding.buy.title')}</h2>
            <p className={styles.text}>{t('onboarding.buy.text')}</p>
            <Link to="/signupbuyer" className={buttonClass('secondary')}>
              {t('landing.hero.signup-buyer')}
            </Link>
          </div>
        </div>
        <p className={styles.links}>
          {t('account.have-account')} <Link to="/login">{t('account.login')}</Link>
        </p>
      </section>
    </div>
  );
}
