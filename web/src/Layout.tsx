import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from './components/Avatar.js';
import { ApprovalsLink } from './features/approvals/ApprovalsLink.js';
import { useAuth, useUser } from './features/auth/AuthProvider.js';
import { useSignedInLanguage } from './features/self/language.js';
import { Link, useLocation } from './router.js';

/** The links of the bar; `label` is a key of the `common` namespace (docs/i18n.md). */
const USER_LINKS = [
  { to: '/', label: 'nav.findDesk' },
  { to: '/reservations', label: 'nav.reservations' },
  { to: '/people', label: 'nav.people' },
  { to: '/report', label: 'nav.report' },
];

/**
 * The administrators' pages, behind the "Admin" button of the bar (docs/behaviour.md#the-menu): a
 * new page is one line here (and its route in App.tsx).
 */
const ADMIN_LINKS = [
  { to: '/admin/departments', label: 'nav.offices' },
  { to: '/admin/users', label: 'nav.users' },
  { to: '/admin/teams', label: 'nav.teams' },
  { to: '/admin/policies', label: 'nav.policies' },
  { to: '/admin/reports', label: 'nav.reports' },
  { to: '/admin/stats', label: 'nav.stats' },
  { to: '/admin/attendance', label: 'nav.attendance' },
  { to: '/admin/outbox', label: 'nav.outbox' },
  { to: '/admin/today', label: 'nav.today' },
  { to: '/admin/privacy', label: 'nav.privacy' },
  { to: '/admin/displays', label: 'nav.displays' },
  { to: '/admin/closures', label: 'nav.closures' },
];

const isCurrent = (to: string, pathname: string) => (to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`));

export function Layout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  useSignedInLanguage();
  const { user, isAdmin } = useUser();
  const { signOut } = useAuth();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [adminOpen, setAdminOpen] = useState(false);

  const main = useRef<HTMLElement>(null);
  const arrived = useRef(false);

  // A followed link closes the phone menu and the Admin list and takes keyboard and screen-reader
  // focus to the new page (not on the first load, where focus starts at the top as usual).
  useEffect(() => {
    setMenuOpen(false);
    setAdminOpen(false);
    if (arrived.current) main.current?.focus({ preventScroll: true });
    arrived.current = true;
  }, [pathname]);

  // Escape closes what is open, the innermost first, and puts focus back on the button that opened
  // it: the Admin list, then the phone menu (docs/behaviour.md#the-menu).
  const menuButton = useRef<HTMLButtonElement>(null);
  const adminButton = useRef<HTMLButtonElement>(null);
  const adminGroup = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (!menuOpen && !adminOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      if (adminOpen) {
        setAdminOpen(false);
        adminButton.current?.focus();
      } else {
        setMenuOpen(false);
        menuButton.current?.focus();
      }
    };
    // A press outside the Admin list closes it, as focus leaving it does (onBlur below).
    const onPointer = (event: PointerEvent) => {
      if (adminOpen && !adminGroup.current?.contains(event.target as Node)) setAdminOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [menuOpen, adminOpen]);

  /** Up and Down arrows (Home, End) move between the Admin list's links; Down on the button opens it at its first. */
  const onAdminKey = (event: ReactKeyboardEvent) => {
    const links = [...(adminGroup.current?.querySelectorAll<HTMLAnchorElement>('#admin-menu a') ?? [])];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: links.length - 1 }[event.key];
    if (next === undefined || (at < 0 && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    if (!adminOpen) {
      setAdminOpen(true);
      // The list shows on the next render; focus its first link then.
      requestAnimationFrame(() => adminGroup.current?.querySelector<HTMLAnchorElement>('#admin-menu a')?.focus());
      return;
    }
    links[Math.max(0, Math.min(links.length - 1, next))]?.focus();
  };

  const link = ({ to, label }: { to: string; label: string }) => (
    <li key={to}>
      <Link to={to} aria-current={isCurrent(to, pathname) ? 'page' : undefined}>
        {t(label)}
      </Link>
    </li>
  );
  const inAdmin = ADMIN_LINKS.some(({ to }) => isCurrent(to, pathname));

  return (
    <>
      <a href="#main" className="skip-link">
        {t('skipToContent')}
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
            {t('menu')}
          </button>
          <nav id="main-menu" className={`menu${menuOpen ? ' menu-open' : ''}`} aria-label={t('mainNav')}>
            <ul>
              {USER_LINKS.map(link)}
              <ApprovalsLink admin={isAdmin} current={isCurrent('/approvals', pathname)} />
              {isAdmin && (
                <li
                  ref={adminGroup}
                  className="menu-admin"
                  onKeyDown={onAdminKey}
                  onBlur={(event) => {
                    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setAdminOpen(false);
                  }}
                >
                  <button
                    ref={adminButton}
                    type="button"
                    className={`menu-admin-button${inAdmin ? ' menu-admin-current' : ''}`}
                    aria-expanded={adminOpen}
                    aria-controls="admin-menu"
                    onClick={() => setAdminOpen((open) => !open)}
                  >
                    {t('admin')}
                  </button>
                  <ul id="admin-menu" className="menu-admin-list" aria-label={t('adminNav')} hidden={!adminOpen}>
                    {ADMIN_LINKS.map(link)}
                  </ul>
                </li>
              )}
            </ul>
            <div className="menu-user">
              <Link to="/profile" className="profile-link" aria-current={pathname === '/profile' ? 'page' : undefined}>
                <Avatar user={user} size={28} />
                <span>
                  {user.firstName} {user.lastName}
                </span>
              </Link>
              <button type="button" className="button-secondary button-small" onClick={() => void signOut()}>
                {t('signOut')}
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
