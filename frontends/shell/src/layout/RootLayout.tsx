import { Outlet } from '@tuber/shell-contract/router';
import { Header } from './Header.js';
import { PendingProfileNotice } from './PendingProfileNotice.js';
import { ScrollRestoration } from './ScrollRestoration.js';

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
