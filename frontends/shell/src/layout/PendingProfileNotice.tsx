// The yellow notice of spec §4: verified, but the buyer/farmer profile is not created yet.
import { useSession } from '@tuber/shell-contract';
import { Button, useT } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';
import { useShellChrome } from '../session/ShellChrome.js';
import styles from './notice.module.css';

export function PendingProfileNotice() {
  const session = useSession();
  const t = useT(shellCatalogue);
  const { profileSetup, createProfileNow } = useShellChrome();
  if (session.status !== 'signed-in' || !session.user.pendingProfile) return null;
  if (profileSetup === 'idle') return null; // the first-login step has not run yet
  const creating = profileSetup === 'creating';
  return (
    <div className={styles.notice} role="region" aria-label={t('notice.label')}>
      <div className={styles.inner}>
        <p className={styles.text}>{t('notice.partial')}</p>
        <Button className={styles.button} disabled={creating} onClick={() => void createProfileNow()}>
          {creating ? t('notice.creating') : t('notice.create')}
        </Button>
      </div>
    </div>
  );
}
