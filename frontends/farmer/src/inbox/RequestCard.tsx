// One order request in the farmer's inbox: a summary line (number, buyer, status, total, unread mark) that
// opens to the whole request — contacts, lines, fulfilment, note, history — and the actions its status allows.
import { useId, useState } from 'react';
import { displayPhone, whatsAppLink, type OrderRequest } from '@tuber/contracts';
import { useApi } from '@tuber/shell-contract';
import { Button, ReportAction } from '@tuber/ui';
import { useFarmerT } from '../i18n/t.js';
import { dayText, quantityText, unitLabel } from '../i18n/words.js';
import { InlineSpinner } from '../shared/InlineSpinner.js';
import { AcceptForm } from './AcceptForm.js';
import { ReviewAnswer } from './ReviewAnswer.js';
import { allowedActions, historyText, momentText, nairaText, statusLabel, telHref, whatsAppText, type FarmerAction } from './inbox.js';
import type { RunAction } from './useRequestActions.js';
import styles from './inbox.module.css';

interface RequestCardProps {
  request: OrderRequest;
  /** The action running on this request, if any (its button shows a spinner; the others wait). */
  busy: FarmerAction | null;
  run: RunAction;
  /** Asks for the reason of a decline or cancel (the confirm step). */
  askReason: (request: OrderRequest, action: 'decline' | 'cancel') => void;
  onOpen: (request: OrderRequest) => void;
  /** Whether the farmer blocked this request's buyer (issue 24); undefined while the list is not known. */
  buyerBlocked?: boolean | undefined;
  /** Asks to confirm blocking this request's buyer. */
  askBlock: (request: OrderRequest) => void;
}

export function RequestCard({ request, busy, run, askReason, onOpen, buyerBlocked, askBlock }: RequestCardProps) {
  const [accepting, setAccepting] = useState(false);
  const api = useApi();
  const t = useFarmerT();
  const actions = allowedActions(request.status);
  const whatsApp = whatsAppLink(request.buyer_phone, whatsAppText(request));
  const headingId = useId();

  return (
    <li className={styles.card} data-testid="order-request" data-status={request.status} aria-labelledby={headingId}>
      <details
        className={styles.details}
        onToggle={(event) => {
          if (event.currentTarget.open) onOpen(request);
        }}
      >
        {/* "Show details ▾" / "Hide details ▴" drawn by CSS from these, in the farmer's language (issue 25). */}
        <summary className={styles.summary} data-show={t('inbox.show_details')} data-hide={t('inbox.hide_details')}>
          <span className={styles.summaryTop}>
            <span id={headingId} className={styles.number}>
              {request.number}
            </span>
            {request.unread && (
              <span className={styles.unread} data-testid="unread-mark">
                {t('inbox.unread')}
              </span>
            )}
            <span className={styles.status} data-status={request.status}>
              {statusLabel(request.status)}
            </span>
          </span>
          <span className={styles.summaryLine}>
            <span className={styles.buyer}>{request.buyer_name}</span>
            <span className={styles.total}>{nairaText(request.total)}</span>
          </span>
          <span className={styles.summaryMeta}>
            {request.lines.length === 1 ? request.lines[0]!.product_name : t('inbox.products_count', { count: request.lines.length })} ·{' '}
            {t('inbox.sent_at', { when: momentText(request.created_at) })}
          </span>
        </summary>

        <div className={styles.body}>
          <div className={styles.contact}>
            <a className={styles.phone} href={telHref(request.buyer_phone)}>
              {displayPhone(request.buyer_phone)}
            </a>
            {whatsApp && (
              <a className={styles.whatsApp} href={whatsApp} target="_blank" rel="noopener noreferrer">
                {t('inbox.whatsapp')}
              </a>
            )}
          </div>

          <table className={styles.lines}>
            <caption className={styles.visuallyHidden}>{t('inbox.lines_caption', { number: request.number })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('inbox.col.product')}</th>
                <th scope="col">{t('inbox.col.quantity')}</th>
                <th scope="col">{t('inbox.col.price')}</th>
                <th scope="col">{t('inbox.col.line_total')}</th>
              </tr>
            </thead>
            <tbody>
              {request.lines.map((line) => (
                <tr key={line.product_id}>
                  <th scope="row" data-label={t('inbox.col.product')}>
                    {line.product_name}
                  </th>
                  <td data-label={t('inbox.col.quantity')}>
                    {line.accepted_quantity !== undefined && line.accepted_quantity !== line.quantity ? (
                      <>
                        {quantityText(line.accepted_quantity, line.unit)}{' '}
                        <span className={styles.asked}>{t('inbox.asked', { quantity: quantityText(line.quantity, line.unit) })}</span>
                      </>
                    ) : (
                      quantityText(line.quantity, line.unit)
                    )}
                  </td>
                  <td data-label={t('inbox.col.price')}>{t('unit.price', { price: nairaText(line.price), unit: unitLabel(line.unit) })}</td>
                  <td data-label={t('inbox.col.line_total')}>{nairaText(line.line_total)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  {t('inbox.total')}
                </th>
                <td data-label={t('inbox.total')} data-testid="request-total">
                  {nairaText(request.total)}
                </td>
              </tr>
            </tfoot>
          </table>

          <dl className={styles.facts}>
            <div>
              <dt>{request.fulfilment === 'delivery' ? t('inbox.delivery_to') : t('inbox.pickup')}</dt>
              <dd>{request.fulfilment === 'delivery' ? request.address || t('inbox.no_address') : t('inbox.buyer_collects')}</dd>
            </div>
            <div>
              <dt>{t('inbox.preferred_date')}</dt>
              <dd>{dayText(request.preferred_date)}</dd>
            </div>
            {request.note && (
              <div>
                <dt>{t('inbox.note')}</dt>
                <dd className={styles.note}>{request.note}</dd>
              </div>
            )}
          </dl>

          <section className={styles.history} aria-label={t('inbox.history_of', { number: request.number })}>
            <h3 className={styles.historyTitle}>{t('inbox.history')}</h3>
            <ol>
              {request.history.map((entry, index) => (
                <li key={`${entry.at}-${index}`}>
                  <span className={styles.historyWhat}>{historyText(entry)}</span>{' '}
                  <time dateTime={entry.at} className={styles.historyWhen}>
                    {momentText(entry.at)}
                  </time>
                  {entry.reason && <span className={styles.reason}>{t('inbox.reason_is', { reason: entry.reason })}</span>}
                </li>
              ))}
            </ol>
          </section>

          {actions.length > 0 && accepting && actions.includes('accept') ? (
            <AcceptForm
              request={request}
              busy={busy === 'accept'}
              onAccept={(body) => run(request, 'accept', body)}
              onBack={() => setAccepting(false)}
            />
          ) : (
            actions.length > 0 && (
              <div className={styles.actions}>
                {actions.includes('accept') && (
                  <Button onClick={() => setAccepting(true)} disabled={busy !== null}>
                    {t('inbox.accept')}
                  </Button>
                )}
                {actions.includes('fulfil') && (
                  <Button onClick={() => void run(request, 'fulfil')} disabled={busy !== null} aria-busy={busy === 'fulfil'}>
                    {busy === 'fulfil' && <InlineSpinner />}
                    {t('inbox.mark_fulfilled')}
                  </Button>
                )}
                {actions.includes('decline') && (
                  <Button
                    variant="secondary"
                    className={styles.dangerOutline}
                    onClick={() => askReason(request, 'decline')}
                    disabled={busy !== null}
                  >
                    {t('inbox.decline')}
                  </Button>
                )}
                {actions.includes('cancel') && (
                  <Button
                    variant="secondary"
                    className={styles.dangerOutline}
                    onClick={() => askReason(request, 'cancel')}
                    disabled={busy !== null}
                  >
                    {t('inbox.cancel_request')}
                  </Button>
                )}
              </div>
            )
          )}

          {request.review ? <ReviewAnswer requestId={request.request_id} review={request.review} /> : null}
          <ReportAction api={api} kind="request" targetId={request.request_id} />

          {/* Blocking stops this buyer's new requests; this one and any others already sent stay (issue 24). */}
          <div className={styles.actions}>
            {buyerBlocked ? (
              <p className={styles.blockedNote} data-testid="buyer-blocked">
                {t('blocked.buyer_is_blocked')}
              </p>
            ) : (
              <Button
                variant="secondary"
                className={styles.dangerOutline}
                onClick={() => askBlock(request)}
                disabled={buyerBlocked === undefined}
              >
                {t('blocked.block_buyer')}
              </Button>
            )}
          </div>
        </div>
      </details>
    </li>
  );
}
