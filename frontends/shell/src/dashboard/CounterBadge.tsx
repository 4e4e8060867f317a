// A count beside a menu item or the header's cart: the number is drawn, a screen reader hears
// "(3 items in cart)" / "(2 unread requests)" as part of the link's name. Nothing while the count is 0.
import { useCounter, type CounterName } from '@tuber/shell-contract';
import { useT } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';
import { badgeText } from './menus.js';
import styles from './badge.module.css';

export function CounterBadge({ counter, className }: { counter: CounterName; className?: string }) {
  const count = useCounter(counter);
  const t = useT(shellCatalogue);
  if (count <= 0) return null;
  return (
    <>
      <span
        className={`${styles.badge} ${counter === 'unread' ? styles.unread : ''} ${className ?? ''}`}
        aria-hidden="true"
        data-counter={counter}
      >
        {badgeText(count)}
      </span>
      <span className={styles.visuallyHidden}> ({t(counter === 'cart' ? 'badge.cart' : 'badge.unread', { count })})</span>
    </>
  );
}
