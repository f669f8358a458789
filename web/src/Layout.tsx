import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Avatar } from './components/Avatar.js';
import { ApprovalsLink } from './features/approvals/ApprovalsLink.js';
import { useAuth, useUser } from './features/auth/AuthProvider.js';
import { Link, useLocation } from './router.js';

const USER_LINKS = [
  { to: '/', label: 'Find a desk' },
  { to: '/reservations', label: 'My reservations' },
  { to: '/report', label: 'Report a problem' },
];

const ADMIN_LINKS = [
  { to: '/admin/departments', label: 'Offices' },
  { to: '/admin/users', label: 'Users' },
  { to: '/admin/reports', label: 'Reports' },
  { to: '/admin/stats', label: 'Statistics' },
  { to: '/admin/attendance', label: 'Attendance' },
  { to: '/admin/closures', label: 'Closures' },
];

const isCurrent = (to: string, pathname: string) => (to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`));

export function Layout({ children }: { children: ReactNode }) {
  const { user, isAdmin } = useUser();
  const { signOut } = useAuth();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  const main = useRef<HTMLElement>(null);
  const arrived = useRef(false);

  // A followed link closes the phone menu and takes keyboard and screen-reader focus to the new
  // page (not on the first load, where focus starts at the top as usual).
  useEffect(() => {
    setMenuOpen(false);
    if (arrived.current) main.current?.focus({ preventScroll: true });
    arrived.current = true;
  }, [pathname]);

  // Escape closes the open phone menu and puts focus back on its button (docs/behaviour.md#the-phone-menu).
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const link = ({ to, label }: { to: string; label: string }) => (
    <li key={to}>
      <Link to={to} aria-current={isCurrent(to, pathname) ? 'page' : undefined}>
        {label}
      </Link>
    </li>
  );

  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <div className="topbar-inner">
          <Link to="/" className="brand">
            <span className="brand-mark" aria-hidden="true" />
            Deskbook
          </Link>
          <button
            ref={menuButton}
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls="main-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            Menu
          </button>
          <nav id="main-menu" className={`menu${menuOpen ? ' menu-open' : ''}`} aria-label="Main">
            <ul>
              {USER_LINKS.map(link)}
              <ApprovalsLink admin={isAdmin} current={isCurrent('/approvals', pathname)} />
            </ul>
            {isAdmin && (
              <ul aria-label="Administration" className="menu-admin">
                {ADMIN_LINKS.map(link)}
              </ul>
            )}
            <div className="menu-user">
              <Link to="/profile" className="profile-link" aria-current={pathname === '/profile' ? 'page' : undefined}>
                <Avatar user={user} size={28} />
                <span>
                  {user.firstName} {user.lastName}
                </span>
              </Link>
              <button type="button" className="button-secondary button-small" onClick={() => void signOut()}>
                Sign out
              </button>
            </div>
          </nav>
        </div>
      </header>
      <main id="main" tabIndex={-1} ref={main}>
        {children}
      </main>
    </>
  );
}
