import { useState } from 'react';
import { Avatar } from '../../components/Avatar.js';
import { ImageButtons, useImageUpload } from '../../components/ImageUpload.js';
import { Alert, EmptyState, FormButtons, Loaded, PageHeader, TextField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { useSchemaForm } from '../../lib/forms.js';
import { imageHint } from '../../lib/images.js';
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
import { useEndSession, useMySessions, useSaveProfile } from './queries.js';
import './styles.css';

export function ProfilePage() {
  useTitle('Profile');
  const { user } = useUser();
  return (
    <div className="page page-narrow">
      <PageHeader title="Your profile" />
      <p className="lead">
        {user.email}
        {user.role === 'ADMIN' && <span className="badge">Administrator</span>}
      </p>
      <AvatarSection />
      <NameSection />
      <SignInMethodsSection user={user} />
      {!user.ldap && (
        <section className="panel" aria-labelledby="password-heading">
          <h2 id="password-heading">Password</h2>
          <PasswordChangeForm submitLabel="Change the password" success="Your password has been changed. Your other devices have been signed out." />
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

const AVATAR_TEXTS = {
  uploaded: 'Your picture has been updated.',
  removed: 'Your picture has been removed.',
  uploadSubject: 'Your account',
  removeSubject: 'Your picture',
};

function AvatarSection() {
  const { user } = useUser();
  const image = useImageUpload({ kind: 'avatar', userId: user.id }, AVATAR_TEXTS);
  const hint = imageHint(image.limits);

  return (
    <section className="panel" aria-labelledby="avatar-heading">
      <h2 id="avatar-heading">Picture</h2>
      {image.message && <Alert kind={image.message.kind}>{image.message.text}</Alert>}
      <div className="avatar-editor">
        <Avatar user={user} size={88} />
        <div className="stack">
          <ImageButtons image={image} present={user.hasAvatar} replaceLabel="Choose another picture" />
          <p className="field-hint">{hint ? `${hint} It is cropped to a square.` : 'It is cropped to a square.'}</p>
        </div>
      </div>
    </section>
  );
}

function NameSection() {
  const { user } = useUser();
  const form = useSchemaForm(PersonNames, { firstName: user.firstName, lastName: user.lastName }, { trim: NAME_FIELDS });
  const saving = useSaveProfile();
  const failure = errorText(saving.error);

  return (
    <section className="panel" aria-labelledby="name-heading">
      <h2 id="name-heading">Name</h2>
      {failure && <Alert kind="error">{failure}</Alert>}
      {saving.isSuccess && <Alert kind="success">Your name has been saved.</Alert>}
      <form onSubmit={form.handleSubmit((body) => saving.mutate({ body }))} noValidate className="stack">
        <div className="field-pair">
          <TextField label="First name" autoComplete="given-name" {...form.field('firstName')} />
          <TextField label="Last name" autoComplete="family-name" {...form.field('lastName')} />
        </div>
        <FormButtons busy={saving.isPending} busyLabel="Saving…">
          Save the name
        </FormButtons>
      </form>
    </section>
  );
}

function SessionsSection() {
  const { user, sessionId } = useUser();
  const { signOut } = useAuth();
  const sessions = useMySessions(user.id);
  const [ending, setEnding] = useState<string>();
  const revoking = useEndSession(() => setEnding(undefined));
  const failure = errorText(revoking.error, 'This session');

  const end = (id: string) => {
    if (id === sessionId) return void signOut();
    setEnding(id);
    revoking.mutate({ params: { path: { id } } });
  };

  return (
    <section className="panel" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Where you are signed in</h2>
      {failure && <Alert kind="error">{failure}</Alert>}
      <Loaded query={sessions} label="Loading your sessions…">
        {(page) =>
          page.content.length === 0 ? (
            <EmptyState>No active sessions.</EmptyState>
          ) : (
            <ul className="session-list">
              {page.content.map((session) => (
                <li key={session.id} className="session">
                  <div>
                    <p>
                      <strong>{deviceName(session.userAgent)}</strong>
                      {session.id === sessionId && <span className="badge badge-accent">This device</span>}
                    </p>
                    <p className="muted">
                      Signed in {formatDateTime(session.createdAt)} · stays signed in until {formatDateTime(session.refreshExpiresAt)}
                    </p>
                  </div>
                  <button type="button" className="button-secondary button-small" disabled={ending === session.id} onClick={() => end(session.id)}>
                    {session.id === sessionId ? 'Sign out' : 'Sign out this device'}
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
