// One order request in the farmer's inbox: a summary line (number, buyer, status, total, unread mark) that
// opens to the whole request — contacts, lines, fulfilment, note, history — and the actions its status allows.
import { useId, useState } from 'react';
import { displayPhone, whatsAppLink, type OrderRequest } from '@tuber/contracts';
import { Button, calendarDayText, quantityText, unitLabel } from '@tuber/ui';
import { InlineSpinner } from '../shared/InlineSpinner.js';
import { AcceptForm } from './AcceptForm.js';
import { allowedActions, historyText, momentText, nairaText, STATUS_LABELS, telHref, whatsAppText, type FarmerAction } from './inbox.js';
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
}

export function RequestCard({ request, busy, run, askReason, onOpen }: RequestCardProps) {
  const [accepting, setAccepting] = useState(false);
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
        <summary className={styles.summary}>
          <span className={styles.summaryTop}>
            <span id={headingId} className={styles.number}>
              {request.number}
            </span>
            {request.unread && (
              <span className={styles.unread} data-testid="unread-mark">
                Unread
              </span>
            )}
            <span className={styles.status} data-status={request.status}>
              {STATUS_LABELS[request.status]}
            </span>
          </span>
          <span className={styles.summaryLine}>
            <span className={styles.buyer}>{request.buyer_name}</span>
            <span className={styles.total}>{nairaText(request.total)}</span>
          </span>
          <span className={styles.summaryMeta}>
            {request.lines.length === 1 ? request.lines[0]!.product_name : `${request.lines.length} products`} · sent{' '}
            {momentText(request.created_at)}
          </span>
        </summary>

        <div className={styles.body}>
          <div className={styles.contact}>
            <a className={styles.phone} href={telHref(request.buyer_phone)}>
              {displayPhone(request.buyer_phone)}
            </a>
            {whatsApp && (
              <a className={styles.whatsApp} href={whatsApp} target="_blank" rel="noopener noreferrer">
                Chat on WhatsApp
              </a>
            )}
          </div>

          <table className={styles.lines}>
            <caption className={styles.visuallyHidden}>Products asked for in {request.number}</caption>
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Quantity</th>
                <th scope="col">Price</th>
                <th scope="col">Line total</th>
              </tr>
            </thead>
            <tbody>
              {request.lines.map((line) => (
                <tr key={line.product_id}>
                  <th scope="row" data-label="Product">
                    {line.product_name}
                  </th>
                  <td data-label="Quantity">
                    {line.accepted_quantity !== undefined && line.accepted_quantity !== line.quantity ? (
                      <>
                        {quantityText(line.accepted_quantity, line.unit)}{' '}
                        <span className={styles.asked}>(asked {quantityText(line.quantity, line.unit)})</span>
                      </>
                    ) : (
                      quantityText(line.quantity, line.unit)
                    )}
                  </td>
                  <td data-label="Price">
                    {nairaText(line.price)} {unitLabel(line.unit)}
                  </td>
                  <td data-label="Line total">{nairaText(line.line_total)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  Total
                </th>
                <td data-label="Total" data-testid="request-total">
                  {nairaText(request.total)}
                </td>
              </tr>
            </tfoot>
          </table>

          <dl className={styles.facts}>
            <div>
              <dt>{request.fulfilment === 'delivery' ? 'Delivery to' : 'Pickup'}</dt>
              <dd>{request.fulfilment === 'delivery' ? request.address || 'no address given' : 'The buyer collects from you'}</dd>
            </div>
            <div>
              <dt>Preferred date</dt>
              <dd>{calendarDayText(request.preferred_date)}</dd>
            </div>
            {request.note && (
              <div>
                <dt>Note</dt>
                <dd className={styles.note}>{request.note}</dd>
              </div>
            )}
          </dl>

          <section className={styles.history} aria-label={`History of ${request.number}`}>
            <h3 className={styles.historyTitle}>History</h3>
            <ol>
              {request.history.map((entry, index) => (
                <li key={`${entry.at}-${index}`}>
                  <span className={styles.historyWhat}>{historyText(entry)}</span>{' '}
                  <time dateTime={entry.at} className={styles.historyWhen}>
                    {momentText(entry.at)}
                  </time>
                  {entry.reason && <span className={styles.reason}>Reason: {entry.reason}</span>}
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
                    Accept
                  </Button>
                )}
                {actions.includes('fulfil') && (
                  <Button onClick={() => void run(request, 'fulfil')} disabled={busy !== null} aria-busy={busy === 'fulfil'}>
                    {busy === 'fulfil' && <InlineSpinner />}
                    Mark fulfilled
                  </Button>
                )}
                {actions.includes('decline') && (
                  <Button
                    variant="secondary"
                    className={styles.dangerOutline}
                    onClick={() => askReason(request, 'decline')}
                    disabled={busy !== null}
                  >
                    Decline
                  </Button>
                )}
                {actions.includes('cancel') && (
                  <Button
                    variant="secondary"
                    className={styles.dangerOutline}
                    onClick={() => askReason(request, 'cancel')}
                    disabled={busy !== null}
                  >
                    Cancel request
                  </Button>
                )}
              </div>
            )
          )}
        </div>
      </details>
    </li>
  );
}
