// /dashboard/farmerprofile — the farmer's details, read-only, under the business name (spec §2).
import { useEffect, useId, useState } from 'react';
import { Spinner, useApi, useToast } from '@tuber/ui';
import { loadFailedMessage, messageOf } from '../shared/messages.js';
import type { FarmerProfile } from '../shared/types.js';
import styles from '../profile/profile.module.css';

type ProfileState = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; profile: FarmerProfile };

export default function FarmerProfilePage() {
  const api = useApi();
  const toast = useToast();
  const [state, setState] = useState<ProfileState>({ status: 'loading' });
  const id = useId();

  useEffect(() => {
    let current = true;
    api
      .get<FarmerProfile>('/profile/me')
      .then((profile) => current && setState({ status: 'loaded', profile }))
      .catch((error: unknown) => {
        if (!current) return;
        const message = loadFailedMessage(messageOf(error));
        setState({ status: 'failed', message });
        toast.error(message);
      });
    return () => {
      current = false;
    };
  }, [api, toast]);

  if (state.status === 'loading') return <Spinner label="Loading your profile…" />;
  if (state.status === 'failed')
    return (
      <section className={styles.page}>
        <p className={styles.error} role="alert">
          {state.message}
        </p>
      </section>
    );

  const { profile } = state;
  const fields: { key: string; label: string; value: string; type: string }[] = [
    { key: 'firstname', label: 'First Name', value: profile.firstname, type: 'text' },
    { key: 'lastname', label: 'Last Name', value: profile.lastname, type: 'text' },
    { key: 'email', label: 'Email', value: profile.email, type: 'email' },
    { key: 'phone', label: 'Phone Number', value: profile.phone, type: 'tel' },
  ];
  return (
    <section className={styles.page}>
      <div className={styles.card}>
        <h1 className={styles.title}>{profile.business_name || `${profile.firstname} ${profile.lastname}`}</h1>
        {profile.location && <p className={styles.location}>{profile.location}</p>}
        <div className={styles.fields}>
          {fields.map((field) => (
            <div key={field.key} className={styles.field}>
              <label htmlFor={`${id}-${field.key}`}>{field.label}</label>
              <input id={`${id}-${field.key}`} type={field.type} value={field.value} disabled readOnly />
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
