// The Contact Farmer modal (spec §2): spinner, then the farmer's business, location, phone and e-mail links;
// issue 12 adds "Chat on WhatsApp" and counts the clicks on each for the farmer's insights.
import { useEffect, useRef } from 'react';
import { useApi } from '@tuber/shell-contract';
import { Spinner } from '@tuber/ui';
import { sendActivity } from '../orders/activity.js';
import { growsLine, mailtoHref, phoneText, telHref } from './contactText.js';
import { useFarmerContact } from './useFarmerContact.js';
import { WhatsAppLink } from './WhatsAppLink.js';
import { farmerChatText } from './whatsAppText.js';
import { useBuyerT } from '../i18n/t.js';
import styles from './contact.module.css';

export interface ContactAbout {
  /** The product the buyer is looking at: contact clicks are counted for it. */
  productId?: string;
  /** The WhatsApp message, given the business name (default: a greeting naming Tuber Market). */
  chatText?: (businessName: string) => string;
}

export function ContactFarmerModal({ farmerId, onClose, productId, chatText }: { farmerId: string; onClose: () => void } & ContactAbout) {
  const t = useBuyerT();
  const state = useFarmerContact(farmerId, { t });
  const api = useApi();
  const count = (kind: 'contact_phone' | 'contact_email') => {
    if (productId) sendActivity(api, productId, kind);
  };
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    // The native modal dialog brings the backdrop, focus trapping and Escape.
    // No close() on cleanup: removing the element ends the modal, and a close() there would fire "close"
    // (and onClose) after StrictMode's trial unmount.
    if (element && !element.open) element.showModal();
  }, []);

  const grows = state.status === 'ready' ? growsLine(state.contact.business_name, state.contact.tuber, t) : null;
  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-labelledby="contact-farmer-title"
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose(); // a click on the backdrop
      }}
    >
      <div className={styles.body}>
        <button type="button" className={styles.close} aria-label={t('common.close')} onClick={onClose}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
          </svg>
        </button>
        {state.status === 'loading' ? (
          <>
            <h2 id="contact-farmer-title" className={styles.hidden}>
              {t('contact.button')}
            </h2>
            <Spinner label={t('contact.loading')} />
          </>
        ) : null}
        {state.status === 'error' ? (
          <>
            <h2 id="contact-farmer-title" className={styles.title}>
              {t('contact.button')}
            </h2>
            <p role="alert" className={styles.error}>
              {t('contact.error', { message: state.message })}
            </p>
          </>
        ) : null}
        {state.status === 'ready' ? (
          <>
            <h2 id="contact-farmer-title" className={styles.title}>
              {t('contact.title', { business: state.contact.business_name })}
            </h2>
            <p className={styles.location}>{state.contact.location}</p>
            <ul className={styles.links}>
              <li>
                <a className={styles.link} href={telHref(state.contact.phone)} onClick={() => count('contact_phone')}>
                  <span className={styles.linkLabel}>{t('contact.phone')}</span>
                  {phoneText(state.contact.phone)}
                </a>
              </li>
              <li>
                <a className={styles.link} href={mailtoHref(state.contact.email)} onClick={() => count('contact_email')}>
                  <span className={styles.linkLabel}>{t('contact.email')}</span>
                  {state.contact.email}
                </a>
              </li>
            </ul>
            <WhatsAppLink
              phone={state.contact.phone}
              text={chatText ? chatText(state.contact.business_name) : farmerChatText(state.contact.business_name, t)}
              productId={productId}
            />
            {grows ? <p className={styles.grows}>{grows}</p> : null}
          </>
        ) : null}
      </div>
    </dialog>
  );
}
