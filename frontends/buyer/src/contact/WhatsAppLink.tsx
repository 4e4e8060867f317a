// "Chat on WhatsApp": a wa.me link with a pre-filled message (issue 12). Not shown when the farmer's phone
// cannot be turned into a Nigerian E.164 number, since the link would open nowhere useful.
import { useApi } from '@tuber/shell-contract';
import { sendActivity } from '../orders/activity.js';
import { chatLink } from './whatsAppText.js';
import { useBuyerT } from '../i18n/t.js';
import styles from './contact.module.css';

export function WhatsAppLink({
  phone,
  text,
  productId,
  className,
}: {
  phone: string | null | undefined;
  text: string;
  /** Counted for the farmer's insights (contact_whatsapp) when the link is about one product. */
  productId?: string;
  className?: string;
}) {
  const api = useApi();
  const t = useBuyerT();
  const href = chatLink(phone, text);
  if (!href) return null;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={[styles.whatsApp, className].filter(Boolean).join(' ')}
      data-testid="whatsapp-link"
      onClick={() => {
        if (productId) sendActivity(api, productId, 'contact_whatsapp');
      }}
    >
      <svg className={styles.whatsAppIcon} viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          fill="currentColor"
          d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2Zm0 18.2a8.2 8.2 0 0 1-4.2-1.2l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2Zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8s-.4-.1-.6.1-.7.8-.8 1-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.2-.4.2-.4.7-1.3.1-.2 0-.3 0-.4l-.8-1.8c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-.9 2.2 5.2 5.2 0 0 0 1.1 2.8 11.9 11.9 0 0 0 4.6 4c1.7.7 2.3.8 3.2.7a2.7 2.7 0 0 0 1.8-1.3 2.2 2.2 0 0 0 .2-1.3c-.1-.1-.3-.2-.5-.3Z"
        />
      </svg>
      {t('chat.button')}
    </a>
  );
}
