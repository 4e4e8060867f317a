// /signupfarmer (guests only): Create New Farmer Account. Exposed as landing/SignupFarmerPage.
import { SignupForm } from '../account/SignupForm.js';
import styles from '../account/forms.module.css';

export default function SignupFarmerPage() {
  return (
    <div className={styles.page}>
      <SignupForm role="farmer" />
    </div>
  );
}
