// Words of the desk that depend on data: target kinds, reasons, actions, and the choices an action form offers.
import type { ModerationAction, TargetSummary } from '@tuber/contracts';
import type { Translator } from '../i18n/catalogue.js';

export const kindWord = (kind: string, t: Translator) => t(`kind.${kind}`);
export const reasonWord = (reason: string, t: Translator) => t(`reason.${reason}`);
export const actionWord = (action: string, t: Translator) => t(`action.${action}`);

export interface ActionChoice {
  id: string;
  action: ModerationAction;
  account?: 'farmer' | 'buyer';
  label: string;
}

/** What a moderator may do to this target as it stands (the server checks again). */
export function choicesFor(target: TargetSummary, openReports: number, t: Translator): ActionChoice[] {
  const choices: ActionChoice[] = [];
  if (openReports > 0) choices.push({ id: 'dismiss', action: 'dismiss', label: t('act.dismiss') });
  if (target.target_kind === 'product') {
    choices.push(target.hidden ? { id: 'unhide', action: 'unhide', label: t('act.unhide') } : { id: 'hide', action: 'hide', label: t('act.hide') });
  }
  const account = (who: 'farmer' | 'buyer', suspended: boolean | undefined) =>
    suspended
      ? { id: `restore-${who}`, action: 'restore' as const, account: who, label: t(`act.restore_${who}`) }
      : { id: `suspend-${who}`, action: 'suspend' as const, account: who, label: t(`act.suspend_${who}`) };
  if (target.farmer_id) choices.push(account('farmer', target.farmer_suspended));
  if (target.buyer_id) choices.push(account('buyer', target.buyer_suspended));
  return choices;
}

/** Suspension lengths offered, in days; 0 is "until restored". */
export const SUSPENSION_DAYS = [0, 1, 7, 30] as const;
