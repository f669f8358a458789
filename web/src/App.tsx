import { lazy, Suspense, useEffect, useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { serverUnreachableAtRestore } from './api/client.js';
import { onPasswordChangeRequired, passwordChangeRequired } from './api/password-change.js';
import { Layout } from './Layout.js';
import { Loading, PageHeader } from './components/ui.js';
import { AuthProvider, useAuth } from './features/auth/AuthProvider.js';
import { ChoosePasswordPage } from './features/self/ChoosePasswordPage.js';
import { SignInPage } from './features/auth/SignInPage.js';
import { useTitle } from './hooks.js';
import { matchRoute, safeNext, type RouteParams } from './lib/routes.js';
import { registerWorkerWhenIdle } from './pwa/register.js';
import { UpdatePrompt } from './pwa/UpdatePrompt.js';
import { loadProblems } from './lib/translate.js';
import { Link, navigate, useLocation } from './router.js';

/**
 * Each page is its own chunk, loaded when first shown (docs/architecture.md#building): the first
 * load carries the frame, sign-in and what every page shares, not every page of the app.
 */
function page<Name extends string, Props extends object>(load: () => Promise<Record<Name, ComponentType<Props>>>, name: Name) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const FindDeskPage = page(() => import('./features/search/FindDeskPage.js'), 'FindDeskPage');
const MyReservationsPage = page(() => import('./features/reservations/MyReservationsPage.js'), 'MyReservationsPage');
const ReportProblemPage = page(() => import('./features/reports/ReportProblemPage.js'), 'ReportProblemPage');
const ProfilePage = page(() => import('./features/self/ProfilePage.js'), 'ProfilePage');
const DepartmentsPage = page(() => import('./features/inventory/pages/DepartmentsPage.js'), 'DepartmentsPage');
const DepartmentPage = page(() => import('./features/inventory/pages/DepartmentPage.js'), 'DepartmentPage');
const RoomPage = page(() => import('./features/inventory/pages/RoomPage.js'), 'RoomPage');
const UsersPage = page(() => import('./features/users/UsersPage.js'), 'UsersPage');
const ReportsPage = page(() => import('./features/reports/ReportsPage.js'), 'ReportsPage');
const StatsPage = page(() => import('./features/stats/StatsPage.js'), 'StatsPage');
const AttendancePage = page(() => import('./features/attendance/AttendancePage.js'), 'AttendancePage');
const DeskPage = page(() => import('./features/attendance/DeskPage.js'), 'DeskPage');
const ForgotPasswordPage = page(() => import('./features/password/ForgotPasswordPage.js'), 'ForgotPasswordPage');
const ResetPasswordPage = page(() => import('./features/password/ResetPasswordPage.js'), 'ResetPasswordPage');
const ClosuresPage = page(() => import('./features/closures/ClosuresPage.js'), 'ClosuresPage');
const OutboxPage = page(() => import('./features/outbox/OutboxPage.js'), 'OutboxPage');
const PoliciesPage = page(() => import('./features/policies/PoliciesPage.js'), 'PoliciesPage');
const TeamsPage = page(() => import('./features/teams/TeamsPage.js'), 'TeamsPage');
const ApprovalsPage = page(() => import('./features/approvals/ApprovalsPage.js'), 'ApprovalsPage');
const WhoIsInPage = page(() => import('./features/people/WhoIsInPage.js'), 'WhoIsInPage');
const TodayListPage = page(() => import('./features/people/TodayListPage.js'), 'TodayListPage');
const PrivacySettingsPage = page(() => import('./features/organisation/PrivacySettingsPage.js'), 'PrivacySettingsPage');
const DisplaysPage = page(() => import('./features/displays/DisplaysPage.js'), 'DisplaysPage');
const DisplayBoardPage = page(() => import('./features/displays/DisplayBoardPage.js'), 'DisplayBoardPage');
const OidcReturnPage = page(() => import('./features/auth/OidcReturnPage.js'), 'OidcReturnPage');
const OfflinePage = page(() => import('./features/offline/OfflinePage.js'), 'OfflinePage');

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
  { path: '/admin/teams', admin: true, render: () => <TeamsPage /> },
  { path: '/admin/reports', admin: true, render: () => <ReportsPage /> },
  { path: '/admin/stats', admin: true, render: () => <StatsPage /> },
  { path: '/admin/attendance', admin: true, render: () => <AttendancePage /> },
  { path: '/admin/closures', admin: true, render: () => <ClosuresPage /> },
  { path: '/admin/outbox', admin: true, render: () => <OutboxPage /> },
  { path: '/admin/policies', admin: true, render: () => <PoliciesPage /> },
  { path: '/approvals', render: () => <ApprovalsPage /> },
  { path: '/people', render: () => <WhoIsInPage /> },
  { path: '/admin/today', admin: true, render: () => <TodayListPage /> },
  { path: '/admin/privacy', admin: true, render: () => <PrivacySettingsPage /> },
  { path: '/admin/displays', admin: true, render: () => <DisplaysPage /> },
  // What a desk's QR code opens (docs/behaviour.md#desk-qr-codes).
  { path: '/d/:deskId', render: (params) => <DeskPage key={params.deskId} deskId={params.deskId!} /> },
];

// Pages reachable without signing in.
const PUBLIC: Record<string, () => ReactNode> = {
  '/forgot-password': () => <ForgotPasswordPage />,
  '/reset-password': () => <ResetPasswordPage />,
  '/sign-in/sso': () => <OidcReturnPage />,
};

/** The lobby display, opened by its token without signing in (docs/people.md#the-lobby-display). */
const DISPLAY_PREFIX = '/display/';
const publicPageOf = (pathname: string): (() => ReactNode) | undefined =>
  PUBLIC[pathname] ??
  (pathname.startsWith(DISPLAY_PREFIX) && pathname.length > DISPLAY_PREFIX.length
    ? () => <DisplayBoardPage key={pathname} token={decodeURIComponent(pathname.slice(DISPLAY_PREFIX.length))} />
    : undefined);

/** A page that only says something (and links to "Find a desk"). */
function MessagePage({ page }: { page: 'notFound' | 'forbidden' }) {
  const { t } = useTranslation();
  useTitle(t(`app.${page}.title`));
  return (
    <div className="page">
      <PageHeader title={t(`app.${page}.heading`)} />
      <p>
        {t(`app.${page}.text`)} <Link to="/">{t('nav.findDesk')}</Link>
      </p>
    </div>
  );
}

const NotFound = () => <MessagePage page="notFound" />;
const Forbidden = () => <MessagePage page="forbidden" />;

/**
 * Once the first page has shown (inside a Suspense boundary, its effect waits for the page's chunk):
 * what can wait until the browser is idle, the problem sentences and the service worker
 * (docs/i18n.md#what-it-weighs, docs/pwa.md#cost). Once per visit.
 */
let afterFirstPageDone = false;
function AfterFirstPage() {
  useEffect(() => {
    if (afterFirstPageDone) return;
    afterFirstPageDone = true;
    registerWorkerWhenIdle(() => void loadProblems().catch(() => undefined));
  }, []);
  return null;
}

function Pages() {
  const { t } = useTranslation();
  const { state } = useAuth();
  const { pathname, search } = useLocation();
  const mustChoosePassword = useSyncExternalStore(onPasswordChangeRequired, passwordChangeRequired);

  // Signed-out visitors of a page go to sign-in, and come back after it.
  // Opened without a connection to the server: the offline page, at whatever address (docs/pwa.md#offline).
  const offline = state.status === 'signed-out' && serverUnreachableAtRestore();
  const mustSignIn = state.status === 'signed-out' && !offline && !publicPageOf(pathname) && pathname !== '/sign-in';
  useEffect(() => {
    if (mustSignIn)
      navigate(`/sign-in${pathname === '/' ? '' : `?next=${encodeURIComponent(pathname + (search.size > 0 ? `?${search}` : ''))}`}`, { replace: true });
  }, [mustSignIn, pathname, search]);
  // Signed in meanwhile, here or in another tab of the browser (docs/sessions.md): on to the page wanted.
  useEffect(() => {
    if (state.status === 'signed-in' && pathname === '/sign-in') navigate(safeNext(search.get('next')), { replace: true });
  }, [state.status, pathname, search]);

  const publicPage = publicPageOf(pathname);
  if (publicPage)
    return (
      <Suspense fallback={<Loading />}>
        {publicPage()}
        <AfterFirstPage />
      </Suspense>
    );
  if (state.status === 'checking') return <Loading label={t('app.signingIn')} />;
  if (offline)
    return (
      <Suspense fallback={<Loading />}>
        <OfflinePage />
      </Suspense>
    );
  if (state.status === 'signed-out')
    return (
      <>
        <SignInPage reason={state.reason} />
        <AfterFirstPage />
      </>
    );
  if (pathname === '/sign-in') return <Loading />;
  // Any page the service refuses until the person has chosen their own password: the form comes
  // first, at the page's address, and the page follows.
  if (mustChoosePassword) return <ChoosePasswordPage />;

  for (const route of ROUTES) {
    const params = matchRoute(route.path, pathname);
    if (params)
      return (
        <Layout>
          <Suspense fallback={<Loading label={t('app.loadingPage')} />}>
            {route.admin && state.user.role !== 'ADMIN' ? <Forbidden /> : route.render(params)}
            <AfterFirstPage />
          </Suspense>
        </Layout>
      );
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
      <UpdatePrompt />
    </AuthProvider>
  );
}
