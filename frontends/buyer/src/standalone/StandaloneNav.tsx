import { NavLink, Outlet } from '@tuber/shell-contract/router';

/** Links between the buyer pages when the remote runs alone (inside the shell, the dashboard sidebar does this). */
export function StandaloneNav() {
  const links = [
    { to: '/dashboard/buyer', label: 'products', end: true },
    { to: '/dashboard/cart', label: 'carts', end: false },
    { to: '/dashboard/requests', label: 'my requests', end: false },
    { to: '/dashboard/buyerprofile', label: 'profile', end: false },
  ];
  return (
    <>
      <nav
        aria-label="Buyer pages (standalone)"
        style={{ display: 'flex', gap: 16, padding: '8px 16px', borderBottom: '1px solid #e3e8e4' }}
      >
        {links.map((link) => (
          <NavLink key={link.to} to={link.to} end={link.end} style={({ isActive }) => ({ fontWeight: isActive ? 700 : 400 })}>
            {link.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </>
  );
}
