// /signupbuyer (guests only): Create New Buyer Account. Exposed as landing/SignupBuyerPage.
import { SignupForm } from '../account/SignupForm.js';
import styles from '../account/forms.module.css';

export default function SignupBuyerPage() {
  return (
    <div className={styles.page}>
      <SignupForm role="buyer" />
    </div>
  );
}
