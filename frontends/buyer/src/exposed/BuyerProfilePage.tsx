// Buyer details at /dashboard/buyerprofile (spec §2): the profile as read-only, disabled fields.
import { useEffect, useState } from 'react';
import { Spinner, useApi } from '@tuber/ui';
import type { BuyerProfile } from '../catalog/types.js';
import styles from '../profile/profile.module.css';

type ProfileState = { status: 'loading' } | { status: 'ready'; profile: BuyerProfile } | { status: 'error'; message: string };

export default function BuyerProfilePage() {
  const api = useApi();
  const [state, setState] = useState<ProfileState>({ status: 'loading' });

  useEffect(() => {
    const abort = new AbortController();
    api
      .get<BuyerProfile>('/profile/me', { signal: abort.signal })
      .then((profile) => setState({ status: 'ready', profile }))
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      });
    return () => abort.abort();
  }, [api]);

  if (state.status === 'loading') return <Spinner label="Loading your details…" />;
  if (state.status === 'error') {
    return (
      <section className={styles.page}>
        <p role="alert" className={styles.error}>
          Error: {state.message}
        </p>
      </section>
    );
  }
  const { profile } = state;
  const fields = [
    { id: 'buyer-firstname', label: 'First name', value: profile.firstname, type: 'text' },
    { id: 'buyer-lastname', label: 'Last name', value: profile.lastname, type: 'text' },
    { id: 'buyer-email', label: 'Email', value: profile.email, type: 'email' },
    { id: 'buyer-phone', label: 'Phone number', value: profile.phone, type: 'tel' },
  ];
  return (
    <section className={styles.page} aria-labelledby="buyer-details-title">
      <h1 id="buyer-details-title" className={styles.title}>
        Buyer Details
      </h1>
      <form className={styles.form} onSubmit={(event) => event.preventDefault()}>
        {fields.map((field) => (
          <label key={field.id} htmlFor={field.id} className={styles.field}>
            <span className={styles.label}>{field.label}</span>
            <input id={field.id} className={styles.input} type={field.type} value={field.value ?? ''} readOnly disabled />
          </label>
        ))}
      </form>
    </section>
  );
}
