import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { LogController, type FastifyHttpOptions, type FastifyInstance, type FastifyServerOptions, type RawServerDefault } from 'fastify';
import fp from 'fastify-plugin';
import { mailConfigured as smtpConfigured, plainHttpRemote, publicUrlIsLocal, pushSubject, type Config } from './config.js';
import { DatabaseBreaker } from './infrastructure/database-gate/breaker.js';
import type { DatabaseHandle } from './db/client.js';
import { migrate } from './db/migrate.js';
import { primaryOnly, REPLICA_DEFAULTS, ReplicaRouter, type ReadRouting } from './db/replica.js';
import { loggerOptions } from './logging.js';
import { AuthService } from './modules/auth/auth.service.js';
import { attendanceRoutes } from './modules/attendance/attendance.routes.js';
import { RELEASE_JOB, releaseJob } from './modules/attendance/attendance.release.js';
import { AttendanceService, attendanceRules } from './modules/attendance/attendance.service.js';
import { checkInRemindersPurge, REMINDER_JOB, reminderJob } from './modules/attendance/attendance.reminders.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { endpointPolicy, pushKind } from './modules/notifications/notifications.push.js';
import { NotificationsRepository } from './modules/notifications/notifications.repository.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { WEB_REFRESH_GRACE_MS } from './modules/auth/web-session.js';
import type { DirectoryAuthenticator } from './modules/auth/directory.js';
import { LdapDirectory } from './modules/auth/ldap.js';
import { resolveSigningSecret } from './modules/auth/signing-secret.js';
import { LoginThrottle, ThrottleRepository, throttleWindowsPurge } from './identity/throttle.js';
import { setPasswordHashCost } from './identity/password-hashing.js';
import { calendarTombstonesPurge } from './modules/calendar/calendar.repository.js';
import { expiredOidcFlowsPurge } from './modules/oidc/oidc.repository.js';
import { expiredPasswordTokensPurge } from './modules/password/password.repository.js';
import { expiredSessionsPurge } from './modules/sessions/sessions.repository.js';
import { TokenService } from './modules/auth/tokens.js';
import { avatarsRoutes } from './modules/avatars/avatars.routes.js';
import { AvatarsService } from './modules/avatars/avatars.service.js';
import { departmentImagesRoutes } from './modules/department-images/department-images.routes.js';
import { DepartmentImagesService } from './modules/department-images/department-images.service.js';
import { floorPlansRoutes } from './modules/floor-plans/floor-plans.routes.js';
import { FloorPlansService } from './modules/floor-plans/floor-plans.service.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { DecodeQueue } from './infrastructure/images/images.js';
import { housekeepingJob, type PurgeJob } from './infrastructure/housekeeping/housekeeping.js';
import { JobRunner } from './infrastructure/jobs/runner.js';
import { databaseSlots } from './infrastructure/jobs/slots.js';
import { Outbox, outboxPurge } from './infrastructure/outbox/outbox.js';
import { SmtpMailer, UnconfiguredMailer, type Mailer } from './infrastructure/mail/mailer.js';
import { MAIL_KIND, mailKind } from './infrastructure/mail/mail-kind.js';
import { calendarRoutes } from './modules/calendar/calendar.routes.js';
import { CalendarService } from './modules/calendar/calendar.service.js';
import { INVITATION_KIND, invitationKind } from './modules/calendar/calendar.invitations.js';
import { inventoryRoutes } from './modules/inventory/inventory.routes.js';
import { InventoryService } from './modules/inventory/inventory.service.js';
import { OidcClient } from './modules/oidc/oidc.client.js';
import { oidcRoutes } from './modules/oidc/oidc.routes.js';
import { flowKey, OidcService } from './modules/oidc/oidc.service.js';
import { passwordRoutes } from './modules/password/password.routes.js';
import { PASSWORD_LINK_KIND, passwordLinkKind, PasswordService } from './modules/password/password.service.js';
import { outboxRoutes } from './modules/outbox/outbox.routes.js';
import { closuresRoutes } from './modules/closures/closures.routes.js';
import { approvalsRoutes } from './modules/approvals/approvals.routes.js';
import { ApprovalsService } from './modules/approvals/approvals.service.js';
import { EXPIRY_JOB, expiryJob } from './modules/approvals/approvals.expiry.js';
import { approvalRequestKind } from './modules/approvals/approvals.mail.js';
import { APPROVAL_REQUEST_KIND } from './modules/approvals/approvals.repository.js';
import { ReservationWriter } from './modules/reservations/reservations.writer.js';
import { ClosuresService } from './modules/closures/closures.service.js';
import { OutboxService } from './modules/outbox/outbox.service.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import { mailReporter } from './modules/reports/reports.notify.js';
import { notifyNobody, ReportsService } from './modules/reports/reports.service.js';
import { policiesRoutes } from './modules/policies/policies.routes.js';
import { PoliciesService } from './modules/policies/policies.service.js';
import { reservationsRoutes } from './modules/reservations/reservations.routes.js';
import { OnBehalf } from './modules/reservations/reservations.on-behalf.js';
import { onBehalfRoutes } from './modules/reservations/reservations.on-behalf.routes.js';
import { teamsRoutes } from './modules/teams/teams.routes.js';
import { TeamsService } from './modules/teams/teams.service.js';
import { delegatesRoutes } from './modules/delegates/delegates.routes.js';
import { DelegatesService } from './modules/delegates/delegates.service.js';
import { organisationRoutes } from './modules/organisation/organisation.routes.js';
import { OrganisationService } from './modules/organisation/organisation.service.js';
import { peopleRoutes } from './modules/people/people.routes.js';
import { PeopleService } from './modules/people/people.service.js';
import { displaysRoutes } from './modules/displays/displays.routes.js';
import { DisplaysService } from './modules/displays/displays.service.js';
import { ReservationsService } from './modules/reservations/reservations.service.js';
import { seriesRoutes } from './modules/series/series.routes.js';
import { favouritesRoutes } from './modules/favourites/favourites.routes.js';
import { defaultLanguage } from './modules/preferences/preferences.access.js';
import { preferencesRoutes } from './modules/preferences/preferences.routes.js';
import { PreferencesService } from './modules/preferences/preferences.service.js';
import { FavouritesService } from './modules/favourites/favourites.service.js';
import { UsualService } from './modules/favourites/favourites.usual.js';
import { SeriesService } from './modules/series/series.service.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { SearchService } from './modules/search/search.service.js';
import { selfRoutes } from './modules/users/self.routes.js';
import { sessionsRoutes } from './modules/sessions/sessions.routes.js';
import { SessionsService } from './modules/sessions/sessions.service.js';
import { statsRoutes } from './modules/stats/stats.routes.js';
import { StatsService } from './modules/stats/stats.service.js';
import { ensureFirstAdmin } from './modules/users/first-admin.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { UsersService } from './modules/users/users.service.js';
import apiHeaders from './plugins/api-headers.js';
import authenticate from './plugins/authenticate.js';
import readYourWrites from './plugins/read-your-writes.js';
import databaseGate from './plugins/database-gate.js';
import encoding, { parseQuery } from './plugins/encoding.js';
import expensive from './plugins/expensive.js';
import writeRate from './plugins/write-rate.js';
import openapi from './plugins/openapi.js';
import problem, { badUrlProblem, clientErrorProblem } from './plugins/problem.js';
import requestLog from './plugins/request-log.js';
import validation from './plugins/validation.js';
import web from './plugins/web.js';
import { systemClock, type Clock } from './shared/clock.js';

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** A streaming replica of `database` for the heavy reads (DATABASE_READ_URL, docs/deployment.md#with-a-read-replica). */
  readDatabase?: DatabaseHandle;
  clock?: Clock;
  /** Stands in for the LDAP directory built from LDAP_URL (tests). */
  directory?: DirectoryAuthenticator;
  /** Stands in for the SMTP mailer built from SMTP_URL. */
  mailer?: Mailer;
  /** The built web app's directory instead of dist/web (tests serve a fake build). */
  webRoot?: string;
  /**
   * false: no job runs on its own timer; the work runs only when asked (app.background). For the
   * tests that count a request's SQL statements, where a timed run's statements would be counted
   * with the request's (docs/testing.md#background-work). Default true.
   */
  timedJobs?: boolean;
  /** True once the process began stopping: readiness answers 503 (docs/deployment.md#rolling-restarts). */
  stopping?: () => boolean;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000;
/** The job of src/infrastructure/outbox: sends what the outbox holds. */
const OUTBOX_JOB = 'outbox';

/**
 * The purge jobs housekeeping runs (src/infrastructure/housekeeping): each module that keeps rows
 * which stop mattering defines its own; a new one is added here, with the module's routes.
 */
export function purgeJobs(
  config: Pick<Config, 'LOGIN_ACCOUNT_WINDOW' | 'LOGIN_ADDRESS_WINDOW' | 'PASSWORD_MAIL_COOLDOWN' | 'MAIL_RETENTION' | 'OUTBOX_DEAD_RETENTION'>,
): PurgeJob[] {
  // Sign-in windows are kept as long as the longest throttle window can look back.
  const throttleRetentionMs = Math.max(config.LOGIN_ACCOUNT_WINDOW, config.LOGIN_ADDRESS_WINDOW, config.PASSWORD_MAIL_COOLDOWN);
  return [
    expiredSessionsPurge,
    throttleWindowsPurge(throttleRetentionMs),
    expiredPasswordTokensPurge,
    calendarTombstonesPurge,
    expiredOidcFlowsPurge,
    outboxPurge(config.MAIL_RETENTION, config.OUTBOX_DEAD_RETENTION),
    checkInRemindersPurge,
  ];
}
const MAX_PARAM_LENGTH = 16_384;

/** Options of the Fastify instance itself (they cannot be set from inside a plugin). */
export function serverOptions(config: Config, logger: FastifyServerOptions['logger'] = loggerOptions(config)): FastifyHttpOptions<RawServerDefault> {
  return {
    logger,
    // Fastify's two lines per request are replaced by one (plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    // Fastify accepts a hop count at run time; its types omit it.
    trustProxy: config.TRUST_PROXY as boolean | string[],
    bodyLimit: config.BODY_LIMIT_BYTES,
    // A client that trickles its request holds a connection only this long (docs/behaviour.md, HTTP).
    requestTimeout: config.HTTP_REQUEST_TIMEOUT,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT,
    http: {
      requestTimeout: config.HTTP_REQUEST_TIMEOUT,
      headersTimeout: config.HTTP_HEADERS_TIMEOUT,
      // Node checks the two timeouts above only this often (its default, 30 s, would double them).
      connectionsCheckingInterval: Math.min(1000, Math.floor(config.HTTP_HEADERS_TIMEOUT / 2)),
    },
    clientErrorHandler: clientErrorProblem,
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // The router's own limit on a path parameter (100 characters) would answer ROUTE_NOT_FOUND for
    // an overlong id, as if the operation did not exist; past this one (above any request line Node
    // accepts, 16 KiB) the route is found and its schema names the parameter (docs/behaviour.md, HTTP).
    routerOptions: { ignoreTrailingSlash: true, querystringParser: parseQuery, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: badUrlProblem,
    // Migrations run inside the plugin; an index built on a large table may take minutes.
    pluginTimeout: 0,
  };
}

/**
 * Background work of the service a caller can wait for, instead of sleeping
 * (docs/testing.md#background-work): the tests use it.
 */
export interface BackgroundWork {
  /**
   * Runs the outbox job until nothing in the outbox is due (after its run in flight, if any) and
   * answers the messages sent: every mail queued before the call that can go out now has gone out.
   */
  drainOutbox(): Promise<number>;
  /** Runs a whole round of the attendance release (after the one in flight, if any), with what it released. */
  releaseRound(): Promise<number>;
  /** Runs the approval expiry (after the run in flight, if any), with how many requests expired. */
  expireApprovals(): Promise<number>;
  /** Runs the check-in reminders (after the run in flight, if any), with how many were queued (docs/notifications.md#events). */
  checkInReminders(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    background: BackgroundWork;
  }
}

/**
 * The whole service as one plugin: migrations (under a lock), first-admin bootstrap, services
 * and routes. server.ts registers it; so do the tests.
 */
async function deskbook(app: FastifyInstance, options: AppOptions) {
  const { config, database } = options;
  const { db } = database;
  const clock = options.clock ?? systemClock;

  setPasswordHashCost(config.PASSWORD_HASH_COST);
  const applied = await migrate(db);
  if (applied > 0) app.log.info({ applied }, 'database migrations applied');
  await ensureFirstAdmin(db, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD }, app.log, clock);

  const replica = options.readDatabase
    ? new ReplicaRouter(db, options.readDatabase.db, app.log, { ...REPLICA_DEFAULTS, maxLagMs: config.DATABASE_READ_MAX_LAG })
    : undefined;
  const reads: ReadRouting = replica ?? primaryOnly(db);

  const signingSecret = await resolveSigningSecret(db, config.JWT_SECRET);
  const tokens = new TokenService(signingSecret, clock);
  const throttle = new LoginThrottle(new ThrottleRepository(db), {
    maxFailuresPerAccount: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
    accountWindowMs: config.LOGIN_ACCOUNT_WINDOW,
    delayAfterFailures: config.LOGIN_DELAY_AFTER_FAILURES,
    delayBaseMs: config.LOGIN_DELAY_BASE,
    // A count is forgotten after a quiet window, so a longer wait would never be served in full.
    delayMaxMs: Math.min(config.LOGIN_DELAY_MAX, config.LOGIN_ACCOUNT_WINDOW),
    maxAttemptsPerAddress: config.LOGIN_MAX_ATTEMPTS_PER_ADDRESS,
    addressWindowMs: config.LOGIN_ADDRESS_WINDOW,
  });
  const directory = options.directory ?? (config.LDAP_URL ? new LdapDirectory(config, app.log) : undefined);
  const auth = new AuthService(
    db,
    tokens,
    throttle,
    clock,
    {
      accessTokenTtlMs: config.ACCESS_TOKEN_TTL,
      refreshTokenTtlMs: config.REFRESH_TOKEN_TTL,
      autoCreateDirectoryUsers: config.LDAP_AUTO_CREATE,
      webSessionTtlMs: config.WEB_SESSION_IDLE_TTL,
    },
    directory,
    app.log,
  );
  const sessionSettings = { accessTokenTtlMs: config.ACCESS_TOKEN_TTL, refreshTokenTtlMs: config.REFRESH_TOKEN_TTL };
  const oidc =
    config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET
      ? new OidcService(
          db,
          new OidcClient(
            {
              issuer: config.OIDC_ISSUER,
              clientId: config.OIDC_CLIENT_ID,
              clientSecret: config.OIDC_CLIENT_SECRET,
              redirectUri: `${config.PUBLIC_URL.replace(/\/+$/, '')}/api/auth/oidc/callback`,
              scopes: config.OIDC_SCOPES,
              timeoutMs: config.OIDC_TIMEOUT,
            },
            app.log,
          ),
          tokens,
          throttle,
          clock,
          {
            ...sessionSettings,
            flowKey: flowKey(signingSecret),
            issuer: config.OIDC_ISSUER,
            displayName: config.OIDC_DISPLAY_NAME,
            roleClaim: config.OIDC_ROLE_CLAIM,
            groupsClaim: config.OIDC_GROUPS_CLAIM,
            adminValues: (config.OIDC_ADMIN_VALUES ?? '')
              .split(',')
              .map((value) => value.trim())
              .filter(Boolean),
            autoCreate: config.OIDC_AUTO_CREATE,
          },
          app.log,
        )
      : undefined;
  if (oidc && config.OIDC_ISSUER && plainHttpRemote(config.OIDC_ISSUER)) {
    app.log.warn(
      { issuer: config.OIDC_ISSUER },
      'OIDC_ISSUER is plain http to another machine (OIDC_ALLOW_HTTP=true): the client secret and ID tokens travel unencrypted',
    );
  }
  if (publicUrlIsLocal(config)) {
    // Once per start (docs/configuration.md#public-url): admins see the same in the web app.
    app.log.warn(
      { publicUrl: config.PUBLIC_URL },
      `PUBLIC_URL is ${config.PUBLIC_URL}, which reaches this machine only: desk QR codes, calendar links and links in mails will not work for anyone else. Set PUBLIC_URL to the address people reach Deskbook at`,
    );
  }
  const mailer: Mailer = options.mailer ?? (config.SMTP_URL ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM, app.log) : new UnconfiguredMailer(app.log));
  const mailConfigured = options.mailer !== undefined || smtpConfigured(config);
  // Background work: one runner for every job, one outbox for every message (docs/architecture.md#background-jobs).
  const jobs = new JobRunner(app.log, databaseSlots(db, clock));
  const outbox = new Outbox(db, clock, app.log, { leaseMs: config.OUTBOX_LEASE });
  const passwordSettings = {
    publicUrl: config.PUBLIC_URL,
    resetTtlMs: config.PASSWORD_RESET_TTL,
    setupTtlMs: config.ACCOUNT_SETUP_TTL,
    resetMailCooldownMs: config.PASSWORD_MAIL_COOLDOWN,
    defaultLanguage: defaultLanguage(config),
  };
  const passwords = new PasswordService(db, throttle, clock, () => jobs.nudge(OUTBOX_JOB));
  const users = new UsersService(db, clock, throttle, passwords, config.PASSWORD_CHANGE_AFTER_ADMIN_SET);
  const sessions = new SessionsService(db, clock);
  // One queue for every image decode of this process (avatars and department images alike).
  const decodes = new DecodeQueue(config.IMAGE_DECODE_MEMORY);
  const avatars = new AvatarsService(db, clock, Math.min(config.AVATAR_MAX_PIXELS, config.IMAGE_MAX_PIXELS), decodes);
  const inventory = new InventoryService(db, clock);
  const departmentImages = new DepartmentImagesService(db, clock, config.IMAGE_MAX_PIXELS, decodes);
  const reservationRules = {
    maxLengthMs: config.RESERVATION_MAX_LENGTH,
    minLengthMs: config.RESERVATION_MIN_LENGTH,
    maxFuture: config.RESERVATION_MAX_FUTURE,
    horizonMs: config.RESERVATION_HORIZON,
    onePerUser: config.RESERVATION_ONE_PER_USER,
  };
  const onBehalf = new OnBehalf(db, clock, { mails: mailConfigured, publicUrl: config.PUBLIC_URL, defaultLanguage: defaultLanguage(config) });
  const reservations = new ReservationsService(db, clock, reservationRules, reads, onBehalf);
  const teams = new TeamsService(db, clock);
  const delegates = new DelegatesService(db, clock);
  const organisation = new OrganisationService(db, clock);
  const people = new PeopleService(db, clock);
  const displays = new DisplaysService(db, clock, config.PUBLIC_URL);
  const series = new SeriesService(db, clock, reservationRules, config.SERIES_PER_USER);
  const reports = new ReportsService(db, clock, mailConfigured ? mailReporter(config.PUBLIC_URL, defaultLanguage(config)) : notifyNobody);
  const calendar = new CalendarService(db, reads, clock, {
    publicUrl: config.PUBLIC_URL,
    horizonMs: config.RESERVATION_HORIZON,
    defaultLanguage: defaultLanguage(config),
  });
  // The kinds of message the outbox sends; without SMTP their rows are dropped unsent (and logged).
  if (mailConfigured) {
    outbox.register(mailKind(mailer));
    outbox.register(passwordLinkKind(db, mailer, clock, passwordSettings, app.log));
    outbox.register(
      invitationKind(db, mailer, clock, {
        publicUrl: config.PUBLIC_URL,
        mailFrom: config.MAIL_FROM,
        mailsPerHour: config.CALENDAR_MAILS_PER_HOUR,
        defaultLanguage: defaultLanguage(config),
      }),
    );
    outbox.register(approvalRequestKind(db, mailer, config.PUBLIC_URL, defaultLanguage(config)));
  } else {
    for (const kind of [MAIL_KIND, PASSWORD_LINK_KIND, INVITATION_KIND, APPROVAL_REQUEST_KIND]) outbox.discard(kind, 'SMTP_URL is not configured');
  }
  // Push (docs/notifications.md): the key pair made at first start, pushes as one more kind of the outbox.
  const vapidKeys = await new NotificationsRepository(db).vapidKeys();
  const pushPolicy = endpointPolicy(config.PUSH_ENDPOINT_HOSTS, config.PUSH_ALLOW_LOOPBACK);
  outbox.register(
    pushKind(db, { keys: vapidKeys, subject: pushSubject(config), ttlMs: config.PUSH_TTL, timeoutMs: config.PUSH_TIMEOUT, policy: pushPolicy }, app.log),
  );
  const notifications = new NotificationsService(db, clock, {
    publicKey: vapidKeys.publicKey,
    policy: pushPolicy,
    perUser: config.PUSH_SUBSCRIPTIONS_PER_USER,
  });
  const stats = new StatsService(db, clock, reads);
  const search = new SearchService(reads);
  const attendance = new AttendanceService(db, clock, attendanceRules(config));
  if (await attendance.syncDefaults()) app.log.info('check-in settings changed: reservations not started yet planned again');
  const floorPlans = new FloorPlansService(db, reads);
  const breaker = new DatabaseBreaker(() => db.execute(sql`select 1`), app.log, undefined, database.probe);

  // JSON bodies only (image routes add their own parsers): text/plain is 415, not a string failing validation.
  app.removeContentTypeParser('text/plain');
  await app.register(validation);
  await app.register(problem, { databaseOpen: () => database.isOpen(), observe: (error) => breaker.observe(error) });
  await app.register(requestLog, { enabled: config.REQUEST_LOG });
  await app.register(apiHeaders);
  // After the two above: a refused query string still carries their headers.
  await app.register(encoding);
  await app.register(openapi);
  await app.register(databaseGate, { breaker });
  await app.register(authenticate, { auth });
  await app.register(readYourWrites, { reads });
  await app.register(expensive, { perUser: config.EXPENSIVE_CONCURRENCY_PER_USER });
  await app.register(writeRate, { perMinute: config.RESERVATION_WRITES_PER_MINUTE });

  await app.register(healthRoutes, { breaker, stopping: options.stopping ?? (() => false) });
  await app.register(settingsRoutes, { config, mailConfigured });
  // The browser's session cookie is Secure when people reach the service over https (docs/sessions.md#the-cookie).
  const secureCookies = config.PUBLIC_URL.startsWith('https:');
  await app.register(authRoutes, { auth, secureCookies });
  await app.register(oidcRoutes, {
    oidc,
    publicUrl: config.PUBLIC_URL,
    webSession: (refreshToken: string) => auth.refresh(refreshToken, auth.webMode(WEB_REFRESH_GRACE_MS)),
  });
  await app.register(selfRoutes, { users });
  await app.register(usersRoutes, { users });
  await app.register(sessionsRoutes, { sessions });
  await app.register(passwordRoutes, { passwords });
  await app.register(avatarsRoutes, { avatars, maxUploadBytes: config.IMAGE_MAX_BYTES });
  await app.register(inventoryRoutes, { inventory });
  await app.register(departmentImagesRoutes, { images: departmentImages, maxUploadBytes: config.IMAGE_MAX_BYTES });
  await app.register(reservationsRoutes, { reservations });
  await app.register(onBehalfRoutes, { onBehalf });
  await app.register(teamsRoutes, { teams });
  await app.register(delegatesRoutes, { delegates });
  await app.register(notificationsRoutes, { notifications });
  await app.register(organisationRoutes, { organisation });
  await app.register(peopleRoutes, { people });
  await app.register(displaysRoutes, { displays });
  await app.register(seriesRoutes, { series });
  await app.register(favouritesRoutes, { favourites: new FavouritesService(db, clock), usual: new UsualService(db, clock, reservationRules) });
  await app.register(policiesRoutes, { policies: new PoliciesService(db, clock) });
  await app.register(preferencesRoutes, { preferences: new PreferencesService(db, clock, defaultLanguage(config)) });
  await app.register(reportsRoutes, { reports });
  await app.register(statsRoutes, { stats });
  await app.register(searchRoutes, { search });
  await app.register(attendanceRoutes, { attendance, publicUrl: config.PUBLIC_URL, defaultLanguage: defaultLanguage(config) });
  await app.register(floorPlansRoutes, { floorPlans });
  await app.register(calendarRoutes, { calendar });
  await app.register(closuresRoutes, { closures: new ClosuresService(db, clock, config.PUBLIC_URL, defaultLanguage(config)) });
  // Rejections and expiries cancel through the one writer of reservations (docs/policies.md#approvals).
  const cancelForApproval = (tx: typeof db, ids: string[]) => ReservationWriter.cancelForApproval(tx, ids);
  await app.register(approvalsRoutes, {
    approvals: new ApprovalsService(db, clock, cancelForApproval, {
      publicUrl: config.PUBLIC_URL,
      mails: mailConfigured,
      defaultLanguage: defaultLanguage(config),
    }),
  });
  await app.register(outboxRoutes, { outbox: new OutboxService(db, clock, () => jobs.nudge(OUTBOX_JOB)) });
  await app.register(web, { root: options.webRoot });

  // The jobs of every process: work is claimed in the database, so processes share it and never
  // do it twice (docs/architecture.md#background-jobs).
  jobs.add(housekeepingJob(db, clock, purgeJobs(config), HOUSEKEEPING_INTERVAL_MS));
  jobs.add(
    releaseJob({
      db,
      clock,
      log: app.log,
      intervalMs: config.ATTENDANCE_RELEASE_INTERVAL,
      mails: mailConfigured,
      publicUrl: config.PUBLIC_URL,
      defaultLanguage: defaultLanguage(config),
    }),
  );
  jobs.add(reminderJob({ db, clock, log: app.log, intervalMs: config.CHECK_IN_REMINDER_INTERVAL, defaultLanguage: defaultLanguage(config) }));
  jobs.add(
    expiryJob({
      db,
      clock,
      log: app.log,
      cancel: cancelForApproval,
      mails: mailConfigured,
      publicUrl: config.PUBLIC_URL,
      defaultLanguage: defaultLanguage(config),
    }),
  );
  // Every mail leaves from the outbox (docs/architecture.md#the-outbox); OUTBOX_INTERVAL 0: not from this process.
  jobs.add({ name: OUTBOX_JOB, intervalMs: config.OUTBOX_INTERVAL, run: (signal) => outbox.drain(signal) });
  app.addHook('onReady', async () => {
    if (options.timedJobs !== false) jobs.start();
  });
  app.decorate('background', {
    drainOutbox: async () => {
      let sent = 0;
      for (;;) {
        const pass = await jobs.runNow<{ sent: number; more: boolean }>(OUTBOX_JOB);
        sent += pass?.sent ?? 0;
        if (!pass?.more) return sent;
      }
    },
    releaseRound: async () => (await jobs.runNow<number>(RELEASE_JOB)) ?? 0,
    expireApprovals: async () => (await jobs.runNow<number>(EXPIRY_JOB)) ?? 0,
    checkInReminders: async () => (await jobs.runNow<number>(REMINDER_JOB)) ?? 0,
  } satisfies BackgroundWork);
  if (replica) app.addHook('onReady', async () => replica.start());
  app.addHook('onClose', async () => {
    await jobs.stop();
    breaker.stop();
    replica?.stop();
    mailer.close();
  });
}

export default fp(deskbook, { name: 'deskbook', fastify: '5.x' });
