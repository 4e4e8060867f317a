import { Outlet, ScrollRestoration } from 'react-router-dom';
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
