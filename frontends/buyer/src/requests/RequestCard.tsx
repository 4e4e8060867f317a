// One request on My requests (issue 12): number, farmer, status, lines, total, fulfilment and date at a
// glance; opened, its history with reasons, Chat on WhatsApp and Cancel. Opening an unread one marks it read.
import { useId, useState, type FormEvent } from 'react';
import { ApiError, refreshCounter, setCounter, useApi, useToast } from '@tuber/shell-contract';
import { Button, buttonClass, problemText, ReportAction } from '@tuber/ui';
import { useFarmerContact, type ContactState } from '../contact/useFarmerContact.js';
import { WhatsAppLink } from '../contact/WhatsAppLink.js';
import { requestChatText } from '../contact/whatsAppText.js';
import { ORDER_LIMITS, requestCancelPath, requestPath, requestReadPath, type OrderRequest, type UnreadCount } from '../orders/types.js';
import { canCancel, dateTimeText, fulfilmentText, historyText, lineText, nairaText, statusText } from './requestText.js';
import { useBuyerT, type T } from '../i18n/t.js';
import { ReviewForm } from '../trust/ReviewForm.js';
import styles from './requests.module.css';

/** The latest reason given (a decline, a cancel, a lowered quantity), shown without opening the request. */
function latestReason(request: OrderRequest): string | null {
  for (let i = request.history.length - 1; i >= 0; i--) {
    const reason = request.history[i]!.reason;
    if (reason) return reason;
  }
  return null;
}

function RequestWhatsApp({ request, contact, t }: { request: OrderRequest; contact: ContactState; t: T }) {
  if (contact.status !== 'ready') return null;
  const businessName = request.business_name || contact.contact.business_name;
  return <WhatsAppLink phone={contact.contact.phone} text={requestChatText({ ...request, business_name: businessName }, t)} />;
}

function CancelForm({ request, onDone, onKeep }: { request: OrderRequest; onDone: (request: OrderRequest) => void; onKeep: () => void }) {
  const api = useApi();
  const toast = useToast();
  const t = useBuyerT();
  const id = useId();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const text = reason.trim();
    if (!text) {
      setProblem(t('requests.cancel-why-missing'));
      return;
    }
    setBusy(true);
    try {
      const answer = await api.post<OrderRequest | undefined>(requestCancelPath(request.request_id), { reason: text });
      onDone(answer?.request_id ? answer : await api.get<OrderRequest>(requestPath(request.request_id)));
      toast.success(t('requests.cancelled', { number: request.number }));
      refreshCounter('unread');
    } catch (error) {
      const message = problemText(error);
      toast.error(
        error instanceof ApiError && error.statusCode === 409 ? message : t('requests.cancel-failed', { number: request.number, message }),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className={styles.cancelForm} onSubmit={submit} noValidate aria-label={t('requests.cancel-form', { number: request.number })}>
      <label htmlFor={`${id}-reason`}>{t('requests.cancel-why')}</label>
      <textarea
        id={`${id}-reason`}
        rows={2}
        maxLength={ORDER_LIMITS.reasonMaxLength}
        value={reason}
        onChange={(event) => {
          setReason(event.target.value);
          setProblem(null);
        }}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
      />
      {problem ? (
        <p id={`${id}-problem`} className={styles.fieldError}>
          {problem}
        </p>
      ) : null}
      <div className={styles.actions}>
        <Button type="submit" className={styles.danger} disabled={busy} aria-busy={busy}>
          {busy ? (
            <>
              <span className={styles.buttonSpinner} aria-hidden="true" /> {t('requests.cancelling')}
            </>
          ) : (
            t('requests.cancel')
          )}
        </Button>
        <Button variant="secondary" onClick={onKeep} disabled={busy}>
          {t('requests.keep')}
        </Button>
      </div>
    </form>
  );
}

export function RequestCard({ request, onChange }: { request: OrderRequest; onChange: (request: OrderRequest) => void }) {
  const api = useApi();
  const t = useBuyerT();
  const bodyId = useId();
  const [open, setOpen] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const reason = latestReason(request);
  // The farmer's card: for WhatsApp once opened, and for the name if the orders service did not know it yet.
  const contact = useFarmerContact(request.farmer_id, { quiet: true, enabled: open || !request.business_name, t });
  const businessName = request.business_name || (contact.status === 'ready' ? contact.contact.business_name : t('common.farmer'));
  const terminal = request.status === 'declined' || request.status === 'cancelled';

  function toggle() {
    const opening = !open;
    setOpen(opening);
    if (opening && request.unread) {
      onChange({ ...request, unread: false });
      api
        .post<UnreadCount | undefined>(requestReadPath(request.request_id))
        .then((answer) => {
          // The answer is the count left; the shell's poller is asked too, so every badge agrees.
          if (typeof answer?.count === 'number') setCounter('unread', answer.count);
          refreshCounter('unread');
        })
        .catch(() => undefined); // still unread on the server: the mark comes back on the next visit
    }
  }

  return (
    <li
      className={styles.card}
      data-testid="request"
      data-request-id={request.request_id}
      data-status={request.status}
      data-unread={request.unread}
    >
      <button type="button" className={styles.cardHeader} aria-expanded={open} aria-controls={bodyId} onClick={toggle}>
        <span className={styles.headLine}>
          <span className={styles.number}>{request.number}</span>
          {request.unread ? (
            <span className={styles.unread} data-testid="request-unread">
              {t('requests.new')}
            </span>
          ) : null}
          <span className={`${styles.status} ${styles[request.status] ?? ''}`} data-testid="request-status">
            {statusText(request.status, t)}
          </span>
        </span>
        <span className={styles.business}>{businessName}</span>
        <span className={styles.meta}>
          <strong data-testid="request-total">{nairaText(request.total)}</strong> · {t('requests.sent-on')}{' '}
          <time dateTime={request.created_at}>{dateTimeText(request.created_at)}</time>
        </span>
        <span className={styles.chevron} aria-hidden="true">
          {open ? '▲' : '▼'}
        </span>
      </button>
      <div className={styles.cardBody}>
        <ul className={styles.lines} data-testid="request-lines">
          {request.lines.map((line) => (
            <li key={line.product_id}>
              <span className={styles.lineName}>{line.product_name}</span>
              <span className={styles.lineText}>{lineText(line, t)}</span>
              <span className={styles.lineTotal}>{nairaText(line.line_total)}</span>
            </li>
          ))}
        </ul>
        <p className={styles.muted}>{fulfilmentText(request, t)}</p>
        {terminal && reason ? (
          <p className={styles.reason} data-testid="request-reason">
            {t('requests.reason', { reason })}
          </p>
        ) : null}
      </div>
      {open ? (
        <div id={bodyId} className={styles.cardMore}>
          {request.note ? <p className={styles.muted}>{t('requests.note', { note: request.note })}</p> : null}
          <h3 className={styles.historyTitle}>{t('requests.history')}</h3>
          <ol className={styles.timeline} data-testid="request-history">
            {request.history.map((entry, index) => (
              <li key={`${entry.at}-${index}`}>
                <span className={styles.historyWhat}>{historyText(entry, t)}</span>
                <time dateTime={entry.at} className={styles.muted}>
                  {dateTimeText(entry.at)}
                </time>
                {entry.reason ? <span className={styles.historyReason}>“{entry.reason}”</span> : null}
              </li>
            ))}
          </ol>
          <div className={styles.actions}>
            <RequestWhatsApp request={request} contact={contact} t={t} />
            {canCancel(request.status) && !cancelling ? (
              <button type="button" className={buttonClass('secondary', styles.cancelButton)} onClick={() => setCancelling(true)}>
                {t('requests.cancel')}
              </button>
            ) : null}
          </div>
          {request.status === 'fulfilled' ? <ReviewForm requestId={request.request_id} number={request.number} review={request.review} /> : null}
          <ReportAction api={api} kind="request" targetId={request.request_id} />
          {cancelling && canCancel(request.status) ? (
            <CancelForm
              request={request}
              onKeep={() => setCancelling(false)}
              onDone={(updated) => {
                setCancelling(false);
                onChange(updated);
              }}
            />
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
