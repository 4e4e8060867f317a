// /dashboard/inbox — the farmer's order requests (issue 12): New, Accepted and Closed tabs (the tab lives in
// the address, ?tab=accepted), newest first with "Load more"; each request opens to its lines, contacts and
// history, and offers what its status allows (accept with quantities, decline, mark fulfilled, cancel), and
// "Block this buyer" (issue 24), with the farmer's blocked buyers listed above the tabs to unblock.
import { useCallback, useState, type KeyboardEvent } from 'react';
import { Navigate, useLocation, useNavigate } from '@tuber/shell-contract/router';
import type { OrderRequest } from '@tuber/contracts';
import { useCounter, useSession } from '@tuber/shell-contract';
import { Button, Spinner } from '@tuber/ui';
import { INBOX_TABS, emptyTabText, isInboxTab, tabLabel, type InboxTab } from '../inbox/inbox.js';
import { BlockDialog, type BlockQuestion } from '../inbox/BlockDialog.js';
import { BlockedBuyersPanel } from '../inbox/BlockedBuyersPanel.js';
import { ReasonDialog, type ReasonQuestion } from '../inbox/ReasonDialog.js';
import { RequestCard } from '../inbox/RequestCard.js';
import { useBlockedBuyers, type BlockedBuyersApi } from '../inbox/useBlockedBuyers.js';
import { useInbox } from '../inbox/useInbox.js';
import { useRequestActions } from '../inbox/useRequestActions.js';
import { useFarmerT } from '../i18n/t.js';
import { InlineSpinner } from '../shared/InlineSpinner.js';
import { BUYER_HOME_PATH } from '../shared/paths.js';
import styles from '../inbox/inbox.module.css';

export default function InboxPage() {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const t = useFarmerT();
  const notFarmer = session.status === 'signed-in' && session.user.userType !== 'farmer';
  const blocked = useBlockedBuyers(!notFarmer);
  if (notFarmer) return <Navigate to={BUYER_HOME_PATH} replace />;

  const asked = new URLSearchParams(location.search).get('tab');
  const tab: InboxTab = isInboxTab(asked) ? asked : 'new';
  const choose = (next: InboxTab) => {
    if (next === tab) return;
    const query = new URLSearchParams(location.search);
    if (next === 'new') query.delete('tab');
    else query.set('tab', next);
    const search = query.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : '' });
  };

  // The tabs pattern of WAI-ARIA: one tab in the Tab order, arrows (and Home/End) move to the others.
  const moveAlongTabs = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = INBOX_TABS.indexOf(tab);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: INBOX_TABS.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = INBOX_TABS[(to + INBOX_TABS.length) % INBOX_TABS.length]!;
    choose(next);
    document.getElementById(`inbox-tab-${next}`)?.focus();
  };

  return (
    <section className={styles.page}>
      <header className={styles.pageHeader}>
        <h1 className={styles.title}>{t('inbox.title')}</h1>
        <p className={styles.lead}>{t('inbox.lead')}</p>
      </header>
      <BlockedBuyersPanel blocked={blocked} />
      <div className={styles.tabs} role="tablist" aria-label={t('inbox.tabs_label')} onKeyDown={moveAlongTabs}>
        {INBOX_TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`inbox-tab-${name}`}
            aria-selected={name === tab}
            aria-controls="inbox-panel"
            tabIndex={name === tab ? 0 : -1}
            className={styles.tab}
            onClick={() => choose(name)}
          >
            {tabLabel(name)}
          </button>
        ))}
      </div>
      <div id="inbox-panel" role="tabpanel" aria-labelledby={`inbox-tab-${tab}`}>
        {/* A new tab is a new list: nothing of the previous one (pages, open cards, busy buttons) carries over. */}
        <InboxList key={tab} tab={tab} blocked={blocked} />
      </div>
    </section>
  );
}

function InboxList({ tab, blocked }: { tab: InboxTab; blocked: BlockedBuyersApi }) {
  const { state, reload, loadMore, replace } = useInbox(tab);
  const t = useFarmerT();
  const refresh = useCallback(() => reload(), [reload]);
  const { busy, run, open } = useRequestActions({ replace, reload: refresh });
  const [question, setQuestion] = useState<ReasonQuestion | null>(null);
  const changed = useChangedMeanwhile(state.status === 'loaded' ? { at: state.loadedAt, unread: state.unreadAtLoad } : null);

  const askReason = useCallback((request: OrderRequest, action: 'decline' | 'cancel') => setQuestion({ request, action }), []);
  const [blockQuestion, setBlockQuestion] = useState<BlockQuestion | null>(null);
  const askBlock = useCallback((request: OrderRequest) => setBlockQuestion({ buyer_id: request.buyer_id, buyer_name: request.buyer_name }), []);

  async function confirmBlock(buyer: BlockQuestion) {
    // After a failure the dialog stays for another try (or "Keep").
    if (await blocked.block(buyer)) setBlockQuestion(null);
  }

  async function answer(reason: string) {
    if (!question) return;
    const done = await run(question.request, question.action, { reason });
    // After a failure the dialog stays, with the reason typed, for another try (or "Keep it").
    if (done) setQuestion(null);
  }

  if (state.status === 'loading') return <Spinner label={t('inbox.loading')} />;
  if (state.status === 'failed')
    return (
      <div className={styles.error} role="alert">
        <p>{state.message}</p>
        <Button variant="secondary" onClick={() => reload(true)}>
          {t('common.retry')}
        </Button>
      </div>
    );
  if (state.requests.length === 0)
    return (
      <div className={styles.empty}>
        <p>{emptyTabText(tab)}</p>
      </div>
    );

  const questionBusy = question ? busy[question.request.request_id] === question.action : false;
  return (
    <>
      {changed && (
        <div className={styles.changed} role="status">
          <p>{t('inbox.changed')}</p>
          <Button variant="secondary" onClick={() => reload()}>
            {t('inbox.show_latest')}
          </Button>
        </div>
      )}
      <ul className={styles.list} aria-label={t('inbox.list_label', { tab: tabLabel(tab) })}>
        {state.requests.map((request) => (
          <RequestCard
            key={request.request_id}
            request={request}
            busy={busy[request.request_id] ?? null}
            run={run}
            askReason={askReason}
            onOpen={open}
            buyerBlocked={blocked.state.status === 'loaded' ? blocked.isBlocked(request.buyer_id) : undefined}
            askBlock={askBlock}
          />
        ))}
      </ul>
      {state.nextCursor && (
        <div className={styles.more}>
          {typeof state.more === 'object' && (
            <p className={styles.problem} role="alert">
              {state.more.failed}
            </p>
          )}
          <Button
            variant="secondary"
            onClick={() => void loadMore()}
            disabled={state.more === 'loading'}
            aria-busy={state.more === 'loading'}
          >
            {state.more === 'loading' && <InlineSpinner />}
            {t('inbox.load_more')}
          </Button>
        </div>
      )}
      <ReasonDialog question={question} busy={questionBusy} onConfirm={(reason) => void answer(reason)} onClose={() => setQuestion(null)} />
      <BlockDialog
        question={blockQuestion}
        busy={blockQuestion ? blocked.busy.has(blockQuestion.buyer_id) : false}
        onConfirm={(buyer) => void confirmBlock(buyer)}
        onClose={() => setBlockQuestion(null)}
      />
    </>
  );
}

/**
 * True when the shell's unread count (it polls the service) rose above the one loaded with the list shown: a
 * new request, or one a buyer cancelled. The list does not reload by itself, so nothing moves under the
 * farmer's finger; a notice offers the latest instead. The farmer's own reading lowers the baseline.
 */
function useChangedMeanwhile(load: { at: number; unread: number | null } | null): boolean {
  const unread = useCounter('unread');
  const at = load?.at ?? null;
  const [base, setBase] = useState({ at, count: load?.unread ?? unread });
  if (base.at !== at) setBase({ at, count: load?.unread ?? unread });
  else if (unread < base.count) setBase({ at, count: unread });
  return at !== null && base.at === at && unread > base.count;
}
