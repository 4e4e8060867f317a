// What the buyer sees after "Send request" (issue 25): on the page, where the sent lines were, until closed.
// Which farmer, the request's number, what happens next, My requests, and WhatsApp to the farmer with the
// request's own words. Announced to screen readers as it appears (role="status").
import { useEffect, useRef } from 'react';
import { Link } from '@tuber/shell-contract/router';
import { buttonClass } from '@tuber/ui';
import { useFarmerContact } from '../contact/useFarmerContact.js';
import { WhatsAppLink } from '../contact/WhatsAppLink.js';
import { requestChatText } from '../contact/whatsAppText.js';
import { REQUESTS_ROUTE } from '../orders/types.js';
import { useBuyerT } from '../i18n/t.js';
import type { SentRequest } from './useSendRequests.js';
import styles from './cart.module.css';

export function SentConfirmation({ sent, onClose }: { sent: SentRequest; onClose: () => void }) {
  const t = useBuyerT();
  const contact = useFarmerContact(sent.farmerId, { quiet: true, t });
  const heading = useRef<HTMLHeadingElement>(null);
  // Brought into view once (it may appear below the fold of a long cart); not on every render. In braces:
  // Chromium's scrollIntoView now returns a promise, and an effect that returns one breaks React's unmount.
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  const { request, business } = sent;
  const number = request?.number;
  return (
    <section className={styles.sent} role="status" data-testid="request-sent" aria-labelledby={`sent-${sent.farmerId}`}>
      <h2 id={`sent-${sent.farmerId}`} ref={heading} className={styles.sentTitle} tabIndex={-1}>
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span>{number ? t('request.sent', { number, business }) : t('request.sent-plain', { business })}</span>
      </h2>
      <p>{t('sent.next', { business })}</p>
      <div className={styles.sentActions}>
        {request && contact.status === 'ready' ? (
          <WhatsAppLink
            phone={contact.contact.phone}
            text={requestChatText({ ...request, business_name: request.business_name || contact.contact.business_name }, t)}
          />
        ) : null}
        <Link to={REQUESTS_ROUTE} className={buttonClass('secondary')}>
          {t('request.view')}
        </Link>
        <button type="button" className={buttonClass('secondary')} onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </section>
  );
}
