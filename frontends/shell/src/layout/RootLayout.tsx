import { Outlet, ScrollRestoration } from '@tuber/ui/router';
import { Header } from './Header.js';
import { PendingProfileNotice } from './PendingProfileNotice.js';

export function RootLayout() {
  return (
    <>
      <Header />
      <PendingProfileNotice />
      <main>
        <Outlet />
      </main>
      <ScrollRestoration />
    </>
  );
}
