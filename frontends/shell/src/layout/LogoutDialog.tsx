// Confirm Logout (spec §2): "Are you sure you want to logout?" with Yes, Logout and Cancel.
import { useEffect, useRef } from 'react';
import { Button } from '@tuber/ui';
import styles from './dialog.module.css';

export function LogoutDialog({ open, onConfirm, onCancel }: { open: boolean; onConfirm: () => void; onCancel: () => void }) {
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
          Confirm Logout
        </h2>
        <p id="logout-text" className={styles.text}>
          Are you sure you want to logout?
        </p>
        <div className={styles.actions}>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button className={styles.danger} onClick={onConfirm}>
            Yes, Logout
          </Button>
        </div>
      </div>
    </dialog>
  );
}
