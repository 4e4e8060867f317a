import { Outlet, ScrollRestoration } from 'react-router-dom';
import { Header } from './Header.js';

export function RootLayout() {
  return (
    <>
      <Header />
      <main>
        <Outlet />
      </main>
      <ScrollRestoration />
    </>
  );
}
