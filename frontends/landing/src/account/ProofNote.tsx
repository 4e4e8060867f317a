// Says why a form takes a few seconds while the phone solves a proof of work (docs/adr/0068). A status line in
// the form itself, under its button, so nothing covers it and a screen reader hears it once.
import { useT } from '@tuber/ui';
import { landingCatalogue } from '../i18n/catalogue.js';
import styles from './forms.module.css';

export function ProofNote({ checking }: { checking: boolean }) {
  const t = useT(landingCatalogue);
  return (
    <p role="status" className={styles.proofNote}>
      {checking ? t('account.checking-note') : ''}
    </p>
  );
}
