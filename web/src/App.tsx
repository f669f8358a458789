import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { onPasswordChangeRequired, passwordChangeRequired } from './api/password-change.js';
import { Layout } from './Layout.js';
import { Loading, PageHeader } from './components/ui.js';
import { AuthProvider, useAuth } from './features/auth/AuthProvider.js';
import { ChoosePasswordPage } from './features/self/ChoosePasswordPage.js';
import { SignInPage } from './features/auth/SignInPage.js';
import { DepartmentPage } from './features/inventory/pages/DepartmentPage.js';
import { DepartmentsPage } from './features/inventory/pages/DepartmentsPage.js';
import { RoomPage } from './features/inventory/pages/RoomPage.js';
import { AttendancePage } from './features/attendance/AttendancePage.js';
import { DeskPage } from './features/attendance/DeskPage.js';
import { ForgotPasswordPage } from './features/password/ForgotPasswordPage.js';
import { ResetPasswordPage } from './features/password/ResetPasswordPage.js';
import { ReportProblemPage } from './features/reports/ReportProblemPage.js';
import { ReportsPage } from './features/reports/ReportsPage.js';
import { MyReservationsPage } from './features/reservations/MyReservationsPage.js';
import { FindDeskPage } from './features/search/FindDeskPage.js';
import { ProfilePage } from './features/self/ProfilePage.js';
import { OidcReturnPage } from './features/auth/OidcReturnPage.js';
import { StatsPage } from './features/stats/StatsPage.js';
import { UsersPage } from './features/users/UsersPage.js';
import { PoliciesPage } from './features/policies/PoliciesPage.js';
import { useTitle } from './hooks.js';
import { matchRoute, type RouteParams } from './lib/routes.js';
import { Link, navigate, useLocation } from './router.js';

interface Route {
  path: string;
  admin?: boolean;
  render: (params: RouteParams) => ReactNode;
}

const ROUTES: Route[] = [
  { path: '/', render: () => <FindDeskPage /> },
  { path: '/reservations', render: () => <MyReservationsPage /> },
  { path: '/report', render: () => <ReportProblemPage /> },
  { path: '/profile', render: () => <ProfilePage /> },
  { path: '/admin/departments', admin: true, render: () => <DepartmentsPage /> },
  {
    path: '/admin/departments/:departmentId',
    admin: true,
    render: (params) => <DepartmentPage key={params.departmentId} departmentId={params.departmentId!} />,
  },
  {
    path: '/admin/departments/:departmentId/rooms/:roomId',
    admin: true,
    render: (params) => <RoomPage key={params.roomId} departmentId={params.departmentId!} roomId={params.roomId!} />,
  },
  { path: '/admin/users', admin: true, render: () => <UsersPage /> },
  { path: '/admin/reports', admin: true, render: () => <ReportsPage /> },
  { path: '/admin/stats', admin: true, render: () => <StatsPage /> },
  { path: '/admin/attendance', admin: true, render: () => <AttendancePage /> },
  { path: '/admin/policies', admin: true, render: () => <PoliciesPage /> },
  // What a desk's QR code opens (docs/behaviour.md#desk-qr-codes).
  { path: '/d/:deskId', render: (params) => <DeskPage key={params.deskId} deskId={params.deskId!} /> },
];

// Pages reachable without signing in.
const PUBLIC: Record<string, () => ReactNode> = {
  '/forgot-password': () => <ForgotPasswordPage />,
  '/reset-password': () => <ResetPasswordPage />,
  '/sign-in/sso': () => <OidcReturnPage />,
};

/** A page that only says something (and links to "Find a desk"). */
function MessagePage({ title, heading, text }: { title: string; heading: string; text: string }) {
  useTitle(title);
  return (
    <div className="page">
      <PageHeader title={heading} />
      <p>
        {text} <Link to="/">Find a desk</Link>
      </p>
    </div>
  );
}

const NotFound = () => <MessagePage title="Not found" heading="Page not found" text="There is no page at this address." />;
const Forbidden = () => <MessagePage title="Administrators only" heading="Administrators only" text="This page is for administrators." />;

function Pages() {
  const { state } = useAuth();
  const { pathname, search } = useLocation();
  const mustChoosePassword = useSyncExternalStore(onPasswordChangeRequired, passwordChangeRequired);

  // Signed-out visitors of a page go to sign-in, and come back after it.
  const mustSignIn = state.status === 'signed-out' && !PUBLIC[pathname] && pathname !== '/sign-in';
  useEffect(() => {
    if (mustSignIn)
      navigate(`/sign-in${pathname === '/' ? '' : `?next=${encodeURIComponent(pathname + (search.size > 0 ? `?${search}` : ''))}`}`, { replace: true });
  }, [mustSignIn, pathname, search]);
  useEffect(() => {
    if (state.status === 'signed-in' && pathname === '/sign-in') navigate('/', { replace: true });
  }, [state.status, pathname]);

  const publicPage = PUBLIC[pathname];
  if (publicPage) return <>{publicPage()}</>;
  if (state.status === 'checking') return <Loading label="Signing you in…" />;
  if (state.status === 'signed-out') return <SignInPage reason={state.reason} />;
  if (pathname === '/sign-in') return <Loading />;
  // Any page the service refuses until the person has chosen their own password: the form comes
  // first, at the page's address, and the page follows.
  if (mustChoosePassword) return <ChoosePasswordPage />;

  for (const route of ROUTES) {
    const params = matchRoute(route.path, pathname);
    if (params) return <Layout>{route.admin && state.user.role !== 'ADMIN' ? <Forbidden /> : route.render(params)}</Layout>;
  }
  return (
    <Layout>
      <NotFound />
    </Layout>
  );
}

export function App() {
  return (
    <AuthProvider>
      <Pages />
    </AuthProvider>
  );
}
