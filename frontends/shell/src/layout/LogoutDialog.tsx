// Confirm Logout (spec §2): "Are you sure you want to logout?" with Yes, Logout and Cancel.
import { useEffect, useRef } from 'react';
import { Button, useT } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';
import styles from './dialog.module.css';

export function LogoutDialog({ open, onConfirm, onCancel }: { open: boolean; onConfirm: () => void; onCancel: () => void }) {
  const t = useT(shellCatalogue);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-labelledby="logout-title"
      aria-describedby="logout-text"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      onClick={(event) => {
        if (event.target === dialog.current) onCancel(); // a click on the backdrop
      }}
    >
      <div className={styles.body}>
        <h2 id="logout-title" className={styles.title}>
          {t('logout.title')}
        </h2>
        <p id="logout-text" className={styles.text}>
          {t('logout.question')}
        </p>
        <div className={styles.actions}>
          <Button variant="secondary" onClick={onCancel}>
            {t('logout.cancel')}
          </Button>
          <Button className={styles.danger} onClick={onConfirm}>
            {t('logout.confirm')}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
