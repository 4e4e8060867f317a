// The yellow notice of spec §4: verified, but the buyer/farmer profile is not created yet.
import { Button, useSession } from '@tuber/ui';
import { useShellChrome } from '../session/ShellChrome.js';
import styles from './notice.module.css';

export function PendingProfileNotice() {
  const session = useSession();
  const { profileSetup, createProfileNow } = useShellChrome();
  if (session.status !== 'signed-in' || !session.user.pendingProfile) return null;
  if (profileSetup === 'idle') return null; // the first-login step has not run yet
  const creating = profileSetup === 'creating';
  return (
    <div className={styles.notice} role="region" aria-label="Account setup">
      <div className={styles.inner}>
        <p className={styles.text}>Your account is partially set up</p>
        <Button className={styles.button} disabled={creating} onClick={() => void createProfileNow()}>
          {creating ? 'Creating your profile…' : 'Create my profile now'}
        </Button>
      </div>
    </div>
  );
}
