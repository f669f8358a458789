import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../api/settings.js';
import { PublicUrlWarning } from '../../components/PublicUrlWarning.js';
import { Alert, Checkbox, Loaded } from '../../components/ui.js';
import { errorText } from '../../lib/problems.js';
import { formatDateTime } from '../../lib/time.js';
import { useUser } from '../auth/AuthProvider.js';
import { useCalendarSettings, useFeedStatus, useReplaceFeed, useSaveCalendarSettings } from './queries.js';
import './styles.css';

/** The profile page's "Calendar" section: the private feed URL (copy, replace) and the invitation-mail switch. */
export function CalendarSection() {
  const { t } = useTranslation('profile');
  const { isAdmin } = useUser();
  return (
    <section className="panel" aria-labelledby="calendar-heading">
      <h2 id="calendar-heading">{t('calendar.heading')}</h2>
      <p>{t('calendar.intro')}</p>
      {isAdmin && <PublicUrlWarning what="calendarLinks" />}
      <FeedLink />
      <InvitationSwitch />
    </section>
  );
}

function FeedLink() {
  const { t } = useTranslation('profile');
  const status = useFeedStatus();
  const replacing = useReplaceFeed();
  const [copied, setCopied] = useState<'yes' | 'no'>();
  const field = useRef<HTMLInputElement>(null);
  const failure = errorText(replacing.error);
  const created = replacing.data;

  const replace = () => {
    setCopied(undefined);
    replacing.mutate({});
  };
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.url);
      setCopied('yes');
    } catch {
      // No clipboard access (an old browser, or permission refused): select it for the keyboard.
      field.current?.select();
      setCopied('no');
    }
  };

  return (
    <div className="stack">
      {failure && <Alert kind="error">{failure}</Alert>}
      {created ? (
        <>
          <div className="field">
            <label htmlFor="calendar-url">{t('calendar.yourLink')}</label>
            <div className="copy-row">
              <input
                id="calendar-url"
                ref={field}
                readOnly
                value={created.url}
                onFocus={(event) => event.currentTarget.select()}
                aria-describedby="calendar-url-hint"
              />
              <button type="button" className="button-primary" onClick={() => void copy()}>
                {t('calendar.copy')}
              </button>
            </div>
            <p id="calendar-url-hint" className="field-hint">
              {t('calendar.linkHint')}
            </p>
          </div>
          {copied === 'yes' && <Alert kind="success">{t('calendar.copied')}</Alert>}
          {copied === 'no' && <Alert kind="info">{t('calendar.selected')}</Alert>}
        </>
      ) : (
        <Loaded query={status} label={t('calendar.loadingLink')}>
          {(feed) => (feed.exists ? <p>{t('calendar.created', { date: formatDateTime(feed.createdAt!) })}</p> : <p>{t('calendar.none')}</p>)}
        </Loaded>
      )}
      <div>
        <button type="button" className="button-secondary" disabled={replacing.isPending} onClick={replace}>
          {replacing.isPending ? t('calendar.creating') : status.data?.exists || created ? t('calendar.replace') : t('calendar.create')}
        </button>
      </div>
    </div>
  );
}

function InvitationSwitch() {
  const { t } = useTranslation('profile');
  const mail = useSettings()?.mailConfigured;
  const settings = useCalendarSettings();
  const saving = useSaveCalendarSettings();
  // What the person asked for, set in the click itself: a controlled checkbox whose value waited
  // for the mutation's state would be put back by React for a moment.
  const [asked, setAsked] = useState<boolean>();
  const failure = errorText(saving.error);
  return (
    <Loaded query={settings} label={t('calendar.loadingSettings')}>
      {(current) => (
        <div className="stack">
          {failure && <Alert kind="error">{failure}</Alert>}
          {/* Without a mail server nothing is mailed: the switch shows that, and keeps the person's choice for later (docs/configuration.md#mail). */}
          <Checkbox
            label={t('calendar.invitations')}
            checked={mail === false ? false : (asked ?? current.invitationMails)}
            disabled={saving.isPending || mail === false}
            aria-describedby={mail === false ? 'invitation-no-mail' : undefined}
            onChange={(event) => {
              const invitationMails = event.currentTarget.checked;
              setAsked(invitationMails);
              saving.mutate({ body: { invitationMails } }, { onError: () => setAsked(undefined) });
            }}
          />
          {mail === false && (
            <p id="invitation-no-mail" className="field-hint">
              {t('calendar.noMail')}
            </p>
          )}
        </div>
      )}
    </Loaded>
  );
}
