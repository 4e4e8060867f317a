// Route guards (spec §2, §6): signed-in areas, guest-only pages and the buyer/farmer halves of the dashboard.
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from '@tuber/shell-contract/router';
import { useSession } from '@tuber/shell-contract';
import { Spinner, useT } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';
import { BUYER_HOME, FARMER_HOME } from '../session/redirects.js';

function CheckingSession() {
  const t = useT(shellCatalogue);
  return <Spinner label={t('guard.checking')} />;
}

/** Anonymous visitors go to /login, which remembers where they came from. */
export function RequireSignedIn({ children }: { children?: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <CheckingSession />;
  if (session.status === 'anonymous') {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={{ from }} />;
  }
  return children ?? <Outlet />;
}

/** Signed-in users have no business on sign-up and login pages: to /profile. */
export function GuestOnly({ children }: { children?: ReactNode }) {
  const session = useSession();
  if (session.status === 'loading') return <CheckingSession />;
  if (session.status === 'signed-in') return <Navigate to="/profile" replace />;
  return children ?? <Outlet />;
}

/** Buyer pages: any non-buyer goes to the farmer's home. */
export function BuyerOnly({ children }: { children?: ReactNode }) {
  const session = useSession();
  if (session.status !== 'signed-in') return null;
  if (session.user.userType !== 'buyer') return <Navigate to={FARMER_HOME} replace />;
  return children ?? <Outlet />;
}

/** The moderation desk (issue 26): anyone without the moderator role goes to their own home. */
export function ModeratorOnly({ children }: { children?: ReactNode }) {
  const session = useSession();
  if (session.status !== 'signed-in') return null;
  if (!session.user.roles?.includes('moderator')) return <Navigate to={session.user.userType === 'buyer' ? BUYER_HOME : FARMER_HOME} replace />;
  return children ?? <Outlet />;
}

/** Farmer pages: a buyer goes to the feed. */
export function FarmerOnly({ children }: { children?: ReactNode }) {
  const session = useSession();
  if (session.status !== 'signed-in') return null;
  if (session.user.userType === 'buyer') return <Navigate to={BUYER_HOME} replace />;
  return children ?? <Outlet />;
}
