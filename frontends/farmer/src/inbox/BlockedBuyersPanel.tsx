// "Blocked buyers" on the inbox page (issue 24): whom the farmer blocked, newest first, each with Unblock;
// a spinner while loading, a sentence when nobody is blocked, the error with Retry when the list fails.
import { useId, useState } from 'react';
import { Button, Spinner } from '@tuber/ui';
import { useFarmerT } from '../i18n/t.js';
import { InlineSpinner } from '../shared/InlineSpinner.js';
import { momentText } from './inbox.js';
import type { BlockedBuyersApi } from './useBlockedBuyers.js';
import styles from './inbox.module.css';

export function BlockedBuyersPanel({ blocked }: { blocked: BlockedBuyersApi }) {
  const t = useFarmerT();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const count = blocked.state.status === 'loaded' ? blocked.state.buyers.length : null;

  return (
    <section className={styles.blockedSection} aria-labelledby={`${panelId}-toggle`}>
      <button
        type="button"
        id={`${panelId}-toggle`}
        className={styles.blockedToggle}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((now) => !now)}
      >
        {count === null ? t('blocked.title') : t('blocked.title_count', { count })}
      </button>
      {open && (
        <div id={panelId} className={styles.blockedPanel} data-testid="blocked-buyers">
          {blocked.state.status === 'loading' && <Spinner label={t('blocked.loading')} />}
          {blocked.state.status === 'failed' && (
            <div className={styles.error} role="alert">
              <p>{blocked.state.message}</p>
              <Button variant="secondary" onClick={blocked.reload}>
                {t('common.retry')}
              </Button>
            </div>
          )}
          {blocked.state.status === 'loaded' && blocked.state.buyers.length === 0 && (
            <p className={styles.blockedEmpty}>{t('blocked.empty')}</p>
          )}
          {blocked.state.status === 'loaded' && blocked.state.buyers.length > 0 && (
            <>
              <p className={styles.blockedLead}>{t('blocked.lead')}</p>
              <ul className={styles.blockedList}>
                {blocked.state.buyers.map((buyer) => {
                  const busy = blocked.busy.has(buyer.buyer_id);
                  return (
                    <li key={buyer.buyer_id} className={styles.blockedItem} data-testid="blocked-buyer">
                      <span className={styles.blockedName}>
                        <span className={styles.buyer}>{buyer.buyer_name}</span>
                        <span className={styles.summaryMeta}>{t('blocked.since', { when: momentText(buyer.blocked_at) })}</span>
                      </span>
                      <Button
                        variant="secondary"
                        onClick={() => void blocked.unblock(buyer)}
                        disabled={busy}
                        aria-busy={busy}
                        aria-label={t('blocked.unblock_label', { buyer: buyer.buyer_name })}
                      >
                        {busy && <InlineSpinner />}
                        {t('blocked.unblock')}
                      </Button>
                    </li>
                  );
                })}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  );
}
