import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/Avatar.js';
import { ImageButtons, useImageUpload } from '../../components/ImageUpload.js';
import { Alert, EmptyState, FormButtons, Loaded, PageHeader, SelectField, TextField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { useSchemaForm } from '../../lib/forms.js';
import { imageHint } from '../../lib/images.js';
import { applyLanguage, LANGUAGE_NAMES, LANGUAGES } from '../../lib/i18n.js';
import { errorText } from '../../lib/problems.js';
import { formatDateTime } from '../../lib/time.js';
import { useAuth, useUser } from '../auth/AuthProvider.js';
import { CalendarSection } from '../calendar/CalendarSection.js';
import { DelegatesSection } from '../delegates/DelegatesSection.js';
import { BookingDefaultsSection } from '../favourites/BookingDefaultsSection.js';
import { NotificationsSection } from '../notifications/NotificationsSection.js';
import { PrivacySection, StarredSection } from '../people/PrivacySection.js';
import { MyTeamsSection } from '../teams/MyTeamsSection.js';
import { SignInMethodsSection } from '../oidc/SignInMethods.js';
import { NAME_FIELDS, PersonNames } from '../users/person.js';
import { PasswordChangeForm } from './components/PasswordChangeForm.js';
import { deviceName } from './devices.js';
import { useEndSession, useMySessions, usePreferences, useSavePreferences, useSaveProfile } from './queries.js';
import './styles.css';

export function ProfilePage() {
  const { t } = useTranslation('profile');
  useTitle(t('pageTitle'));
  const { user } = useUser();
  return (
    <div className="page page-narrow">
      <PageHeader title={t('title')} />
      <p className="lead">
        {user.email}
        {user.role === 'ADMIN' && <span className="badge">{t('administrator')}</span>}
      </p>
      <AvatarSection />
      <NameSection />
      <LanguageSection />
      <SignInMethodsSection user={user} />
      {!user.ldap && (
        <section className="panel" aria-labelledby="password-heading">
          <h2 id="password-heading">{t('password.heading')}</h2>
          <PasswordChangeForm submitLabel={t('password.submit')} success={t('password.done')} />
        </section>
      )}
      <MyTeamsSection />
      <BookingDefaultsSection />
      <DelegatesSection />
      <PrivacySection />
      <StarredSection />
      <CalendarSection />
      <NotificationsSection />
      <SessionsSection />
    </div>
  );
}

function AvatarSection() {
  const { t } = useTranslation('profile');
  const { user } = useUser();
  const texts = {
    uploaded: t('picture.uploaded'),
    removed: t('picture.removed'),
    uploadSubject: t('picture.uploadSubject'),
    removeSubject: t('picture.removeSubject'),
  };
  const image = useImageUpload({ kind: 'avatar', userId: user.id }, texts);
  const hint = imageHint(image.limits);

  return (
    <section className="panel" aria-labelledby="avatar-heading">
      <h2 id="avatar-heading">{t('picture.heading')}</h2>
      {image.message && <Alert kind={image.message.kind}>{image.message.text}</Alert>}
      <div className="avatar-editor">
        <Avatar user={user} size={88} />
        <div className="stack">
          <ImageButtons image={image} present={user.hasAvatar} replaceLabel={t('picture.replace')} />
          <p className="field-hint">{hint ? `${hint} ${t('picture.square')}` : t('picture.square')}</p>
        </div>
      </div>
    </section>
  );
}

function NameSection() {
  const { t } = useTranslation('profile');
  const { user } = useUser();
  const form = useSchemaForm(PersonNames, { firstName: user.firstName, lastName: user.lastName }, { trim: NAME_FIELDS });
  const saving = useSaveProfile();
  const failure = errorText(saving.error);

  return (
    <section className="panel" aria-labelledby="name-heading">
      <h2 id="name-heading">{t('name.heading')}</h2>
      {failure && <Alert kind="error">{failure}</Alert>}
      {saving.isSuccess && <Alert kind="success">{t('name.saved')}</Alert>}
      <form onSubmit={form.handleSubmit((body) => saving.mutate({ body }))} noValidate className="stack">
        <div className="field-pair">
          <TextField label={t('name.first')} autoComplete="given-name" {...form.field('firstName')} />
          <TextField label={t('name.last')} autoComplete="family-name" {...form.field('lastName')} />
        </div>
        <FormButtons busy={saving.isPending} busyLabel={t('common:saving')}>
          {t('name.submit')}
        </FormButtons>
      </form>
    </section>
  );
}

/** The person's language (docs/i18n.md#choosing-the-language): saved, then the app switches to it. */
function LanguageSection() {
  const { t } = useTranslation('profile');
  const preferences = usePreferences();
  const saving = useSavePreferences();
  const [choice, setChoice] = useState<string>();
  const failure = errorText(saving.error);
  const current = choice ?? preferences.data?.language ?? '';
  const fallback = preferences.data?.defaultLanguage;

  return (
    <section className="panel" aria-labelledby="language-heading">
      <h2 id="language-heading">{t('language.heading')}</h2>
      {failure && <Alert kind="error">{failure}</Alert>}
      {saving.isSuccess && <Alert kind="success">{t('language.saved')}</Alert>}
      <form
        className="stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const language = current === '' ? null : (current as (typeof LANGUAGES)[number]);
          saving.mutate({ body: { language } }, { onSuccess: (saved) => void applyLanguage(saved.effectiveLanguage) });
        }}
      >
        <SelectField label={t('language.label')} hint={t('language.hint')} value={current} onChange={(event) => setChoice(event.target.value)}>
          <option value="">{t('language.default', { language: fallback ? LANGUAGE_NAMES[fallback] : '…' })}</option>
          {LANGUAGES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </SelectField>
        <FormButtons busy={saving.isPending} busyLabel={t('common:saving')}>
          {t('language.submit')}
        </FormButtons>
      </form>
    </section>
  );
}

function SessionsSection() {
  const { t } = useTranslation('profile');
  const { user, sessionId } = useUser();
  const { signOut } = useAuth();
  const sessions = useMySessions(user.id);
  const [ending, setEnding] = useState<string>();
  const revoking = useEndSession(() => setEnding(undefined));
  const failure = errorText(revoking.error, t('sessions.subject'));
  const devices = { unknown: t('sessions.unknownDevice'), on: (browser: string, system: string) => t('sessions.device', { browser, system }) };

  const end = (id: string) => {
    if (id === sessionId) return void signOut();
    setEnding(id);
    revoking.mutate({ params: { path: { id } } });
  };

  return (
    <section className="panel" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">{t('sessions.heading')}</h2>
      {failure && <Alert kind="error">{failure}</Alert>}
      <Loaded query={sessions} label={t('sessions.loading')}>
        {(page) =>
          page.content.length === 0 ? (
            <EmptyState>{t('sessions.none')}</EmptyState>
          ) : (
            <ul className="session-list">
              {page.content.map((session) => (
                <li key={session.id} className="session">
                  <div>
                    <p>
                      <strong>{deviceName(session.userAgent, devices)}</strong>
                      {session.id === sessionId && <span className="badge badge-accent">{t('sessions.thisDevice')}</span>}
                    </p>
                    <p className="muted">
                      {t('sessions.since', { created: formatDateTime(session.createdAt), until: formatDateTime(session.refreshExpiresAt) })}
                    </p>
                  </div>
                  <button type="button" className="button-secondary button-small" disabled={ending === session.id} onClick={() => end(session.id)}>
                    {session.id === sessionId ? t('sessions.signOut') : t('sessions.signOutDevice')}
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
