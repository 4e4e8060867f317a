// /dashboard/farmerprofile — the farmer's details under the business name (spec §2), and since issue 11
// an Edit mode: business name, location, phone and the tubers grown (PATCH /api/profile/me). The
// tubers are what the add-product form offers and what the catalog accepts (it learns them by event).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useApi, useToast } from '@tuber/shell-contract';
import { Button, PhoneCheck, Spinner } from '@tuber/ui';
import { displayPhone } from '@tuber/contracts';
import { useFarmerT } from '../i18n/t.js';
import { tuberName } from '../i18n/words.js';
import { loadFailedMessage, messageOf, offlineActionMessage } from '../shared/messages.js';
import { isOffline } from '../shared/network.js';
import type { FarmerProfile } from '../shared/types.js';
import {
  checkFarmerProfile,
  farmerProfileChange,
  toggleTuber,
  TUBERS,
  valuesOf,
  type FarmerProfileValues,
  type FieldProblems,
} from '../profile/profileForm.js';
import { useChangeEmail } from '../profile/useChangeEmail.js';
import styles from '../profile/profile.module.css';

type ProfileState = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; profile: FarmerProfile };

export default function FarmerProfilePage() {
  const api = useApi();
  const toast = useToast();
  const [state, setState] = useState<ProfileState>({ status: 'loading' });
  const [editing, setEditing] = useState(false);
  const id = useId();
  const t = useFarmerT();
  const changeEmail = useChangeEmail();

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

  if (state.status === 'loading') return <Spinner label={t('profile.loading')} />;
  if (state.status === 'failed')
    return (
      <section className={styles.page}>
        <p className={styles.error} role="alert">
          {state.message}
        </p>
      </section>
    );

  const { profile } = state;
  const tubers = profile.tuber ?? [];
  const fields: { key: string; label: string; value: string; type: string }[] = [
    { key: 'firstname', label: t('profile.first_name'), value: profile.firstname, type: 'text' },
    { key: 'lastname', label: t('profile.last_name'), value: profile.lastname, type: 'text' },
    { key: 'email', label: t('profile.email'), value: profile.email, type: 'email' },
    { key: 'phone', label: t('profile.phone'), value: displayPhone(profile.phone ?? ''), type: 'tel' },
  ];
  return (
    <section className={styles.page}>
      <div className={styles.card}>
        <h1 className={styles.title}>{profile.business_name || `${profile.firstname} ${profile.lastname}`}</h1>
        {profile.location && <p className={styles.location}>{profile.location}</p>}
        {editing ? (
          <FarmerProfileForm
            profile={profile}
            onSaved={(saved) => {
              setState({ status: 'loaded', profile: saved });
              setEditing(false);
            }}
            onCancel={() => setEditing(false)}
          />
        ) : (
          <>
            <div className={styles.fields}>
              {fields.map((field) => (
                <div key={field.key} className={styles.field}>
                  <label htmlFor={`${id}-${field.key}`}>{field.label}</label>
                  <input id={`${id}-${field.key}`} type={field.type} value={field.value} disabled readOnly />
                </div>
              ))}
            </div>
            <div className={styles.tubers} data-testid="tubers-grown">
              <h2 className={styles.subtitle}>{t('profile.tubers')}</h2>
              {tubers.length > 0 ? (
                <ul className={styles.tuberList}>
                  {tubers.map((tuber) => (
                    <li key={tuber}>{tuberName(tuber)}</li>
                  ))}
                </ul>
              ) : (
                <p className={styles.notice}>{t('profile.none_yet', { notice: t('profile.no_tubers') })}</p>
              )}
            </div>
            <div className={styles.phoneSection}>
              <h2 className={styles.subtitle}>{t('profile.phone_section')}</h2>
              <PhoneCheck<FarmerProfile>
                api={api}
                phone={profile.phone}
                verified={profile.phone_verified === true}
                onVerified={(saved, message) => {
                  setState({ status: 'loaded', profile: saved });
                  toast.success(message);
                }}
              />
              <SmsAlerts profile={profile} onSaved={(saved) => setState({ status: 'loaded', profile: saved })} />
            </div>
            <div className={styles.actions}>
              <Button onClick={() => setEditing(true)}>{t('profile.edit')}</Button>
              {changeEmail && (
                <Button variant="secondary" onClick={changeEmail}>
                  {t('profile.change_email')}
                </Button>
              )}
            </div>
          </>
        )}
      </div>
    </section>
  );
}

/** New-request alerts by SMS (issue 26): a switch, open once the phone number is verified. */
function SmsAlerts({ profile, onSaved }: { profile: FarmerProfile; onSaved: (profile: FarmerProfile) => void }) {
  const api = useApi();
  const toast = useToast();
  const t = useFarmerT();
  const id = useId();
  // The switch shows the new state while it is being saved, and goes back if the save fails.
  const [pending, setPending] = useState<boolean>();
  const [problem, setProblem] = useState<string>();
  const verified = profile.phone_verified === true;
  const on = pending ?? profile.sms_alerts === true;
  const saving = pending !== undefined;

  async function change(next: boolean) {
    if (isOffline()) {
      setProblem(offlineActionMessage());
      return;
    }
    setProblem(undefined);
    setPending(next);
    try {
      const saved = await api.patch<FarmerProfile>('/profile/me', { sms_alerts: next });
      onSaved(saved);
      toast.success(t(next ? 'profile.sms_alerts_on' : 'profile.sms_alerts_off'));
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setPending(undefined);
    }
  }

  return (
    <div className={styles.alerts}>
      <label className={styles.check} htmlFor={`${id}-sms`}>
        <input
          id={`${id}-sms`}
          type="checkbox"
          checked={on}
          disabled={saving || (!verified && !on)}
          aria-describedby={`${id}-sms-note`}
          onChange={(e) => change(e.target.checked)}
        />
        {t('profile.sms_alerts')}
      </label>
      <p id={`${id}-sms-note`} className={styles.notice}>
        {verified ? t('profile.sms_alerts_note') : t('profile.sms_alerts_need_verified')}
      </p>
      {problem && (
        <p className={styles.problem} role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

function FarmerProfileForm({
  profile,
  onSaved,
  onCancel,
}: {
  profile: FarmerProfile;
  onSaved: (profile: FarmerProfile) => void;
  onCancel: () => void;
}) {
  const api = useApi();
  const toast = useToast();
  const t = useFarmerT();
  const id = useId();
  const [loaded] = useState(() => valuesOf(profile));
  const [values, setValues] = useState<FarmerProfileValues>(loaded);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [saving, setSaving] = useState(false);

  const set = <K extends keyof FarmerProfileValues>(key: K, value: FarmerProfileValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setProblems((p) => ({ ...p, [key]: undefined }));
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = checkFarmerProfile(values);
    setProblems(found);
    const first = (Object.keys(found) as (keyof FarmerProfileValues)[])[0];
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    const change = farmerProfileChange(values, loaded);
    if (Object.keys(change).length === 0) {
      toast.success(t('profile.updated'));
      onSaved(profile);
      return;
    }
    if (isOffline()) {
      toast.error(offlineActionMessage());
      return;
    }
    setSaving(true);
    try {
      const saved = await api.patch<FarmerProfile>('/profile/me', change);
      toast.success(t('profile.updated'));
      onSaved(saved);
    } catch (error) {
      toast.error(t('profile.update_failed', { message: messageOf(error) }));
      setSaving(false);
    }
  }

  const text = (key: 'business_name' | 'location' | 'phone', label: string, type = 'text', autoComplete?: string) => (
    <div className={styles.field}>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        className={styles.editable}
        type={type}
        value={values[key]}
        autoComplete={autoComplete}
        aria-invalid={problems[key] ? true : undefined}
        aria-describedby={problems[key] ? `${id}-${key}-problem` : undefined}
        onChange={(e) => set(key, e.target.value)}
      />
      {problems[key] && (
        <span id={`${id}-${key}-problem`} className={styles.problem}>
          {problems[key]}
        </span>
      )}
    </div>
  );

  return (
    <form className={styles.editForm} aria-label={t('profile.edit')} onSubmit={submit} noValidate>
      <div className={styles.fields}>
        {text('business_name', t('profile.business_name'), 'text', 'organization')}
        {text('location', t('profile.location'), 'text', 'street-address')}
        {text('phone', t('profile.phone'), 'tel', 'tel')}
      </div>
      <fieldset className={styles.tuberChoices}>
        <legend className={styles.subtitle}>{t('profile.tubers_you_grow')}</legend>
        <div className={styles.checks}>
          {TUBERS.map((tuber) => (
            <label key={tuber} className={styles.check}>
              <input
                type="checkbox"
                checked={values.tuber.includes(tuber)}
                onChange={(e) => set('tuber', toggleTuber(values.tuber, tuber, e.target.checked))}
              />
              {tuberName(tuber)}
            </label>
          ))}
        </div>
        {values.tuber.length === 0 && <p className={styles.notice}>{t('profile.no_tubers')}</p>}
      </fieldset>
      <div className={styles.actions}>
        <Button type="submit" disabled={saving}>
          {saving ? t('common.saving') : t('common.save_changes')}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={saving}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}
