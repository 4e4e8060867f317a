// /onboarding (guests only): choose how to join. Exposed as landing/OnboardingPage.
import { Link } from '@tuber/ui/router';
import { buttonClass } from '@tuber/ui';
import styles from '../account/forms.module.css';

export default function OnboardingPage() {
  return (
    <div className={styles.page}>
      <section className={styles.card} aria-labelledby="onboarding-title">
        <h1 id="onboarding-title" className={styles.title}>
          Join Tuber Market
        </h1>
        <p className={styles.text}>Sell the tubers you grow, or buy fresh ones straight from nearby farms.</p>
        <div className={styles.choices}>
          <div className={styles.choice}>
            <h2 className={styles.choiceTitle}>I grow tubers</h2>
            <p className={styles.text}>List your harvest and reach buyers across the city.</p>
            <Link to="/signupfarmer" className={buttonClass('primary')}>
              Join as a farmer
            </Link>
          </div>
          <div className={styles.choice}>
            <h2 className={styles.choiceTitle}>I buy tubers</h2>
            <p className={styles.text}>Browse fresh produce and contact the farmer directly.</p>
            <Link to="/signupbuyer" className={buttonClass('secondary')}>
              Sign-up as a buyer
            </Link>
          </div>
        </div>
        <p className={styles.links}>
          Already have an account? <Link to="/login">Login</Link>
        </p>
      </section>
    </div>
  );
}
