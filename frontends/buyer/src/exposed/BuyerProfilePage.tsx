// Buyer details at /dashboard/buyerprofile (spec §2): the profile as read-only, disabled fields, and since
// issue 11 an Edit mode for first name, last name and phone (PATCH /api/profile/me). The e-mail address
// changes through Keycloak's verified e-mail update ("Change e-mail", when the shell offers it).
import { useEffect, useState, type FormEvent } from 'react';
import { useApi, useAuth, useToast } from '@tuber/shell-contract';
import { Button, PhoneCheck, problemText, Spinner } from '@tuber/ui';
import { useCartOwner } from '../cart/useCartOwner.js';
import type { BuyerProfile } from '../catalog/types.js';
import {
  buyerProfileChange,
  checkBuyerProfile,
  profileUpdatedMessage,
  profileUpdateFailedMessage,
  valuesOf,
  type BuyerProfileValues,
  type FieldProblems,
} from '../profile/profileForm.js';
import { useBuyerT } from '../i18n/t.js';
import styles from '../profile/profile.module.css';

type ProfileState = { status: 'loading' } | { status: 'ready'; profile: BuyerProfile } | { status: 'error'; message: string };

const PROFILE_PATH = '/dashboard/buyerprofile';

export default function BuyerProfilePage() {
  useCartOwner();
  const api = useApi();
  const toast = useToast();
  const t = useBuyerT();
  const auth = useAuth();
  const [state, setState] = useState<ProfileState>({ status: 'loading' });
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState<BuyerProfileValues>({ firstname: '', lastname: '', phone: '' });
  const [problems, setProblems] = useState<FieldProblems>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const abort = new AbortController();
    api
      .get<BuyerProfile>('/profile/me', { signal: abort.signal })
      .then((profile) => setState({ status: 'ready', profile }))
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setState({ status: 'error', message: problemText(error) });
      });
    return () => abort.abort();
  }, [api]);

  if (state.status === 'loading') return <Spinner label={t('profile.loading')} />;
  if (state.status === 'error') {
    return (
      <section className={styles.page}>
        <p role="alert" className={styles.error}>
          {t('common.error', { message: state.message })}
        </p>
      </section>
    );
  }
  const { profile } = state;

  const startEditing = () => {
    setValues(valuesOf(profile));
    setProblems({});
    setEditing(true);
  };

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = checkBuyerProfile(values, t);
    setProblems(found);
    const first = (Object.keys(found) as (keyof BuyerProfileValues)[])[0];
    if (first) {
      document.getElementById(`buyer-${first}`)?.focus();
      return;
    }
    const change = buyerProfileChange(values, valuesOf(profile));
    if (Object.keys(change).length === 0) {
      toast.success(profileUpdatedMessage(t));
      setEditing(false);
      return;
    }
    setSaving(true);
    try {
      const saved = await api.patch<BuyerProfile>('/profile/me', change);
      setState({ status: 'ready', profile: saved });
      setEditing(false);
      toast.success(profileUpdatedMessage(t));
    } catch (error) {
      toast.error(profileUpdateFailedMessage(problemText(error), t));
    } finally {
      setSaving(false);
    }
  }

  const shown: BuyerProfileValues & { email: string } = editing
    ? { ...values, email: profile.email }
    : { ...valuesOf(profile), email: profile.email };
  const fields = [
    { key: 'firstname', label: t('profile.firstname'), type: 'text', autoComplete: 'given-name', editable: true },
    { key: 'lastname', label: t('profile.lastname'), type: 'text', autoComplete: 'family-name', editable: true },
    { key: 'email', label: t('profile.email'), type: 'email', autoComplete: 'email', editable: false },
    { key: 'phone', label: t('profile.phone'), type: 'tel', autoComplete: 'tel', editable: true },
  ] as const;
  return (
    <section className={styles.page} aria-labelledby="buyer-details-title">
      <h1 id="buyer-details-title" className={styles.title}>
        {t('profile.title')}
      </h1>
      <form className={styles.form} onSubmit={save} aria-label={editing ? t('profile.form-edit') : t('profile.form-view')} noValidate>
        {fields.map((field) => {
          const open = editing && field.editable;
          const problem = field.key !== 'email' ? problems[field.key] : undefined;
          return (
            <label key={field.key} htmlFor={`buyer-${field.key}`} className={styles.field}>
              <span className={styles.label}>{field.label}</span>
              <input
                id={`buyer-${field.key}`}
                className={styles.input}
                type={field.type}
                value={shown[field.key] ?? ''}
                autoComplete={open ? field.autoComplete : undefined}
                readOnly={!open}
                disabled={!open}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `buyer-${field.key}-problem` : undefined}
                onChange={
                  open
                    ? (e) => {
                        const key = field.key as keyof BuyerProfileValues;
                        setValues((v) => ({ ...v, [key]: e.target.value }));
                        setProblems((p) => ({ ...p, [key]: undefined }));
                      }
                    : undefined
                }
              />
              {problem && (
                <span id={`buyer-${field.key}-problem`} className={styles.problem}>
                  {problem}
                </span>
              )}
            </label>
          );
        })}
        <div className={styles.actions}>
          {editing ? (
            <>
              {/* Keys: the Edit button must not become this submit button in place, or the click that opens
                  the form would submit it. */}
              <Button key="save" type="submit" disabled={saving}>
                {saving ? t('profile.saving') : t('profile.save')}
              </Button>
              <Button key="cancel" variant="secondary" onClick={() => setEditing(false)} disabled={saving}>
                {t('profile.cancel')}
              </Button>
            </>
          ) : (
            <>
              <Button key="edit" onClick={startEditing}>
                {t('profile.edit')}
              </Button>
              {auth?.changeEmail && (
                <Button variant="secondary" onClick={() => auth.changeEmail?.({ redirectTo: PROFILE_PATH })}>
                  {t('profile.change-email')}
                </Button>
              )}
            </>
          )}
        </div>
      </form>
      {!editing && (
        <div className={styles.phoneCheck}>
          <PhoneCheck<BuyerProfile>
            api={api}
            phone={profile.phone}
            verified={profile.phone_verified === true}
            onVerified={(saved, message) => {
              setState({ status: 'ready', profile: saved });
              toast.success(message);
            }}
          />
        </div>
      )}
    </section>
  );
}
