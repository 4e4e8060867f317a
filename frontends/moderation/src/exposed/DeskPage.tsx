// The moderation desk (issue 26, docs/adr/0071), the trust-and-safety team's remote, on /dashboard/moderation
// for moderators: the queue of reported targets (oldest first), a target with its reports, history and the
// actions, and the audit log. Everything it shows and does goes through the moderation service's API, which
// answers 403 to anyone without the moderator role; the page says so instead of failing.
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from '@tuber/shell-contract/router';
import { ApiError, useApi, useToast } from '@tuber/shell-contract';
import { Button, momentWords, problemText, Spinner } from '@tuber/ui';
import {
  MODERATION_REASON_MAX,
  type AuditEntry,
  type AuditPage,
  type QueuePage,
  type TargetDetail,
  type TargetSummary,
} from '@tuber/contracts';
import { useDeskT, type Translator } from '../i18n/catalogue.js';
import { actionWord, choicesFor, kindWord, reasonWord, SUSPENSION_DAYS } from '../desk/words.js';
import styles from '../desk/desk.module.css';

type Load<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'forbidden' } | { status: 'error'; message: string };

function useLoad<T>(path: string | null): [Load<T>, () => void] {
  const api = useApi();
  const [state, setState] = useState<Load<T>>({ status: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!path) return;
    const abort = new AbortController();
    setState({ status: 'loading' });
    api
      .get<T>(path, { signal: abort.signal })
      .then((value) => setState({ status: 'ready', value }))
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        if (error instanceof ApiError && error.statusCode === 403) setState({ status: 'forbidden' });
        else setState({ status: 'error', message: problemText(error) });
      });
    return () => abort.abort();
  }, [api, path, round]);
  return [state, useCallback(() => setRound((n) => n + 1), [])];
}

function Loading<T>({ state, t, retry, children }: { state: Load<T>; t: Translator; retry: () => void; children: (value: T) => React.ReactNode }) {
  if (state.status === 'loading') return <Spinner label={t('desk.loading')} />;
  if (state.status === 'forbidden')
    return (
      <p role="alert" data-testid="desk-forbidden">
        {t('desk.not_moderator')}
      </p>
    );
  if (state.status === 'error')
    return (
      <div role="alert">
        <p className={styles.problem}>{t('desk.error', { message: state.message })}</p>
        <Button variant="secondary" onClick={retry}>
          {t('desk.retry')}
        </Button>
      </div>
    );
  return <>{children(state.value)}</>;
}

/** The target's states, as items of the list of chips it stands in (a list holds only items). */
function States({ target, t }: { target: TargetSummary; t: Translator }) {
  return (
    <>
      {target.hidden ? <li className={styles.warn}>{t('state.hidden')}</li> : null}
      {target.farmer_suspended ? <li className={styles.warn}>{t('state.farmer_suspended')}</li> : null}
      {target.buyer_suspended ? <li className={styles.warn}>{t('state.buyer_suspended')}</li> : null}
    </>
  );
}

function Queue({ open, t }: { open: (kind: string, id: string) => void; t: Translator }) {
  const api = useApi();
  const [state, reload] = useLoad<QueuePage>('/moderation/queue');
  const [more, setMore] = useState<QueuePage['items']>([]);
  const [next, setNext] = useState<string | undefined>();
  useEffect(() => {
    if (state.status === 'ready') {
      setMore([]);
      setNext(state.value.next);
    }
  }, [state]);
  return (
    <Loading state={state} t={t} retry={reload}>
      {(page) => {
        const items = [...page.items, ...more];
        if (items.length === 0) return <p data-testid="queue-empty">{t('queue.empty')}</p>;
        return (
          <>
            <p className={styles.muted}>{t('queue.intro')}</p>
            <ul className={styles.list} data-testid="queue">
              {items.map((item) => (
                <li key={`${item.target.target_kind}:${item.target.target_id}`} className={styles.card} data-testid="queue-item" data-target-id={item.target.target_id}>
                  <button type="button" className={styles.cardButton} onClick={() => open(item.target.target_kind, item.target.target_id)}>
                    <span className={styles.muted}>{kindWord(item.target.target_kind, t)}</span>
                    <span className={styles.cardTitle}>{item.target.title}</span>
                    <span>{t('queue.reports', { count: item.open_reports })}</span>
                    <span className={styles.muted}>{t('queue.since', { age: momentWords(item.first_reported_at) })}</span>
                  </button>
                  <ul className={styles.chips}>
                    {Object.entries(item.reasons).map(([reason, count]) => (
                      <li key={reason} className={styles.chip}>
                        {reasonWord(reason, t)} × {count}
                      </li>
                    ))}
                    <States target={item.target} t={t} />
                  </ul>
                </li>
              ))}
            </ul>
            {next ? (
              <Button
                variant="secondary"
                onClick={async () => {
                  const page2 = await api.get<QueuePage>(`/moderation/queue?cursor=${encodeURIComponent(next)}`);
                  setMore((m) => [...m, ...page2.items]);
                  setNext(page2.next);
                }}
              >
                {t('queue.more')}
              </Button>
            ) : null}
          </>
        );
      }}
    </Loading>
  );
}

function EntryLine({ entry, t }: { entry: AuditEntry; t: Translator }) {
  return (
    <li className={styles.card} data-testid="audit-entry" data-action={entry.action}>
      <strong>{t('audit.line', { moderator: entry.moderator_name, action: actionWord(entry.action, t) })}</strong>
      <span className={styles.muted}>
        {momentWords(entry.at)} · {t('audit.target', { kind: kindWord(entry.target_kind, t), id: entry.target_id })}
        {entry.until ? ` · ${t('audit.until', { date: momentWords(entry.until) })}` : ''}
        {entry.closed_reports ? ` · ${t('audit.closed', { count: entry.closed_reports })}` : ''}
      </span>
      <span>“{entry.reason}”</span>
    </li>
  );
}

function ActForm({ detail, onDone, t }: { detail: TargetDetail; onDone: (entry: AuditEntry) => void; t: Translator }) {
  const api = useApi();
  const id = useId();
  const open = detail.reports.filter((r) => r.state === 'open').length;
  const choices = choicesFor(detail.target, open, t);
  const [choice, setChoice] = useState<string>();
  const [reason, setReason] = useState('');
  const [days, setDays] = useState<number>(0);
  const [problem, setProblem] = useState<string>();
  const [sending, setSending] = useState(false);
  const chosen = choices.find((c) => c.id === choice);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!chosen) return setProblem(t('act.pick'));
    if (reason.trim().length < 3) {
      document.getElementById(`${id}-reason`)?.focus();
      return setProblem(t('act.reason_short'));
    }
    setProblem(undefined);
    setSending(true);
    try {
      const until = chosen.action === 'suspend' && days > 0 ? new Date(Date.now() + days * 86_400_000).toISOString() : undefined;
      const entry = await api.post<AuditEntry>(
        `/moderation/targets/${detail.target.target_kind}/${encodeURIComponent(detail.target.target_id)}/actions`,
        { action: chosen.action, reason: reason.trim(), ...(until ? { until } : {}), ...(detail.target.target_kind === 'request' && chosen.account ? { account: chosen.account } : {}) },
      );
      setReason('');
      setChoice(undefined);
      onDone(entry);
    } catch (error) {
      setProblem(problemText(error));
    } finally {
      setSending(false);
    }
  }

  return (
    <form className={styles.form} onSubmit={send} noValidate aria-label={t('act.title')} data-testid="act-form">
      <fieldset className={styles.choices}>
        <legend className={styles.subtitle}>{t('act.choose')}</legend>
        {choices.map((c) => (
          <label key={c.id} className={styles.choice} htmlFor={`${id}-${c.id}`}>
            <input id={`${id}-${c.id}`} type="radio" name={`${id}-action`} checked={choice === c.id} onChange={() => setChoice(c.id)} />
            {c.label}
          </label>
        ))}
      </fieldset>
      {chosen?.action === 'suspend' ? (
        <label className={styles.label} htmlFor={`${id}-days`}>
          {t('act.until')}
          <select id={`${id}-days`} className={styles.input} value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {SUSPENSION_DAYS.map((d) => (
              <option key={d} value={d}>
                {d === 0 ? t('act.forever') : t('act.days', { days: d })}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className={styles.label} htmlFor={`${id}-reason`}>
        {t('act.reason')}
        <textarea id={`${id}-reason`} className={styles.input} rows={3} maxLength={MODERATION_REASON_MAX} value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      {problem ? (
        <p className={styles.problem} role="alert">
          {problem}
        </p>
      ) : null}
      <Button type="submit" disabled={sending}>
        {sending ? t('act.sending') : t('act.send')}
      </Button>
    </form>
  );
}

function Target({ kind, targetId, back, t }: { kind: string; targetId: string; back: () => void; t: Translator }) {
  const toast = useToast();
  const [state, reload] = useLoad<TargetDetail>(`/moderation/targets/${kind}/${encodeURIComponent(targetId)}`);
  return (
    <section data-testid="desk-target">
      <button type="button" className={styles.back} onClick={back}>
        ← {t('target.back')}
      </button>
      <Loading state={state} t={t} retry={reload}>
        {(detail) => (
          <>
            <h2 className={styles.subtitle}>
              {kindWord(detail.target.target_kind, t)}: {detail.target.title}
            </h2>
            <ul className={styles.chips}>
              <States target={detail.target} t={t} />
            </ul>
            {detail.target.hidden_reason ? <p className={styles.muted}>{t('target.hidden_reason', { reason: detail.target.hidden_reason })}</p> : null}
            <div className={styles.section}>
              <h3 className={styles.subtitle}>{t('target.reports')}</h3>
              {detail.reports.length === 0 ? <p className={styles.muted}>{t('target.no_reports')}</p> : null}
              <ul className={styles.list}>
                {detail.reports.map((report) => (
                  <li key={report.report_id} className={styles.card} data-testid="target-report">
                    <strong>{t('target.report_line', { name: report.reporter_name, reason: reasonWord(report.reason, t) })}</strong>
                    {report.note ? <span>“{report.note}”</span> : null}
                    <span className={styles.muted}>
                      {momentWords(report.created_at)} · {t('target.times', { count: report.times })}
                      {report.state === 'closed' ? ` · ${t('target.closed')}` : ''}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
            <div className={styles.section}>
              <ActForm
                detail={detail}
                t={t}
                onDone={(entry) => {
                  toast.success(t('act.done', { action: actionWord(entry.action, t) }));
                  reload();
                }}
              />
            </div>
            <div className={styles.section}>
              <h3 className={styles.subtitle}>{t('target.history')}</h3>
              {detail.actions.length === 0 ? <p className={styles.muted}>{t('target.no_history')}</p> : null}
              <ul className={styles.list}>
                {detail.actions.map((entry) => (
                  <EntryLine key={entry.entry_id} entry={entry} t={t} />
                ))}
              </ul>
            </div>
          </>
        )}
      </Loading>
    </section>
  );
}

function Audit({ t }: { t: Translator }) {
  const api = useApi();
  const [state, reload] = useLoad<AuditPage>('/moderation/audit');
  const [older, setOlder] = useState<AuditEntry[]>([]);
  const [next, setNext] = useState<string | undefined>();
  useEffect(() => {
    if (state.status === 'ready') {
      setOlder([]);
      setNext(state.value.next);
    }
  }, [state]);
  return (
    <Loading state={state} t={t} retry={reload}>
      {(page) => {
        const entries = [...page.entries, ...older];
        if (entries.length === 0) return <p>{t('audit.empty')}</p>;
        return (
          <>
            <ul className={styles.list} data-testid="audit">
              {entries.map((entry) => (
                <EntryLine key={entry.entry_id} entry={entry} t={t} />
              ))}
            </ul>
            {next ? (
              <Button
                variant="secondary"
                onClick={async () => {
                  const more = await api.get<AuditPage>(`/moderation/audit?before=${encodeURIComponent(next)}`);
                  setOlder((o) => [...o, ...more.entries]);
                  setNext(more.next);
                }}
              >
                {t('audit.more')}
              </Button>
            ) : null}
          </>
        );
      }}
    </Loading>
  );
}

/** /dashboard/moderation[?tab=audit][&target=<kind>:<id>] */
export default function DeskPage() {
  const t = useDeskT();
  const location = useLocation();
  const navigate = useNavigate();
  const params = new URLSearchParams(location.search);
  const tab = params.get('tab') === 'audit' ? 'audit' : 'queue';
  const target = /^(product|farmer|request):([A-Za-z0-9_-]{1,64})$/.exec(params.get('target') ?? '');
  const go = (search: string) => navigate({ pathname: location.pathname, search });

  return (
    <section className={styles.page} aria-labelledby="desk-title" data-testid="moderation-desk">
      <h1 id="desk-title" className={styles.title}>
        {t('desk.title')}
      </h1>
      <nav className={styles.tabs} aria-label={t('desk.title')}>
        <button type="button" className={styles.tab} aria-current={tab === 'queue' ? 'page' : undefined} onClick={() => go('')}>
          {t('desk.tab_queue')}
        </button>
        <button type="button" className={styles.tab} aria-current={tab === 'audit' ? 'page' : undefined} onClick={() => go('?tab=audit')}>
          {t('desk.tab_audit')}
        </button>
      </nav>
      {tab === 'audit' ? (
        <Audit t={t} />
      ) : target ? (
        <Target kind={target[1]!} targetId={target[2]!} back={() => go('')} t={t} />
      ) : (
        <Queue open={(kind, id) => go(`?target=${kind}:${encodeURIComponent(id)}`)} t={t} />
      )}
    </section>
  );
}
