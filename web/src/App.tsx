import { useEffect, type ReactNode } from 'react';
import { AuthProvider, useAuth } from './auth.js';
import { Layout } from './components/Layout.js';
import { Loading, PageHeader } from './components/ui.js';
import { useTitle } from './hooks.js';
import { matchRoute, type RouteParams } from './lib/routes.js';
import { DepartmentPage, DepartmentsPage, RoomPage } from './pages/admin/Offices.js';
import { ReportsPage } from './pages/admin/Reports.js';
import { StatsPage } from './pages/admin/Stats.js';
import { UsersPage } from './pages/admin/Users.js';
import { FindDesk } from './pages/FindDesk.js';
import { ForgotPassword } from './pages/ForgotPassword.js';
import { MyReservations } from './pages/MyReservations.js';
import { Profile } from './pages/Profile.js';
import { ReportProblem } from './pages/ReportProblem.js';
import { ResetPassword } from './pages/ResetPassword.js';
import { SignIn } from './pages/SignIn.js';
import { Link, navigate, useLocation } from './router.js';

interface Route {
  path: string;
  admin?: boolean;
  render: (params: RouteParams) => ReactNode;
}

const ROUTES: Route[] = [
  { path: '/', render: () => <FindDesk /> },
  { path: '/reservations', render: () => <MyReservations /> },
  { path: '/report', render: () => <ReportProblem /> },
  { path: '/profile', render: () => <Profile /> },
  { path: '/admin/departments', admin: true, render: () => <DepartmentsPage /> },
  { path: '/admin/departments/:departmentId', admin: true, render: (params) => <DepartmentPage key={params.departmentId} departmentId={params.departmentId!} /> },
  {
    path: '/admin/departments/:departmentId/rooms/:roomId',
    admin: true,
    render: (params) => <RoomPage key={params.roomId} departmentId={params.departmentId!} roomId={params.roomId!} />,
  },
  { path: '/admin/users', admin: true, render: () => <UsersPage /> },
  { path: '/admin/reports', admin: true, render: () => <ReportsPage /> },
  { path: '/admin/stats', admin: true, render: () => <StatsPage /> },
];

// Pages reachable without signing in.
const PUBLIC: Record<string, () => ReactNode> = {
  '/forgot-password': () => <ForgotPassword />,
  '/reset-password': () => <ResetPassword />,
};

function NotFound() {
  useTitle('Not found');
  return (
    <div className="page">
      <PageHeader title="Page not found" />
      <p>
        There is no page at this address. <Link to="/">Find a desk</Link>
      </p>
    </div>
  );
}

function Forbidden() {
  useTitle('Administrators only');
  return (
    <div className="page">
      <PageHeader title="Administrators only" />
      <p>
        This page is for administrators. <Link to="/">Find a desk</Link>
      </p>
    </div>
  );
}

function Pages() {
  const { state } = useAuth();
  const { pathname, search } = useLocation();

  // Signed-out visitors of a page go to sign-in, and come back after it.
  const mustSignIn = state.status === 'signed-out' && !PUBLIC[pathname] && pathname !== '/sign-in';
  useEffect(() => {
    if (mustSignIn) navigate(`/sign-in${pathname === '/' ? '' : `?next=${encodeURIComponent(pathname + (search.size > 0 ? `?${search}` : ''))}`}`, { replace: true });
  }, [mustSignIn, pathname, search]);
  useEffect(() => {
    if (state.status === 'signed-in' && pathname === '/sign-in') navigate('/', { replace: true });
  }, [state.status, pathname]);

  const publicPage = PUBLIC[pathname];
  if (publicPage) return <>{publicPage()}</>;
  if (state.status === 'checking') return <Loading label="Signing you in…" />;
  if (state.status === 'signed-out') return <SignIn reason={state.reason} />;
  if (pathname === '/sign-in') return <Loading />;

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
