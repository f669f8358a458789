import { useRef, useState } from 'react';
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
  const { isAdmin } = useUser();
  return (
    <section className="panel" aria-labelledby="calendar-heading">
      <h2 id="calendar-heading">Calendar</h2>
      <p>
        Subscribe to your reservations in Outlook, Google Calendar or Apple Calendar with a private link: new bookings, changes and cancellations show up there
        by themselves.
      </p>
      {isAdmin && <PublicUrlWarning what="calendarLinks" />}
      <FeedLink />
      <InvitationSwitch />
    </section>
  );
}

function FeedLink() {
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
            <label htmlFor="calendar-url">Your calendar link</label>
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
                Copy the link
              </button>
            </div>
            <p id="calendar-url-hint" className="field-hint">
              Shown only now: paste it into your calendar app (&ldquo;subscribe to calendar&rdquo; or &ldquo;add calendar from URL&rdquo;). Keep it to yourself:
              anyone with it sees your reservations.
            </p>
          </div>
          {copied === 'yes' && <Alert kind="success">The link is copied.</Alert>}
          {copied === 'no' && <Alert kind="info">The link is selected: copy it with Ctrl+C (⌘C on a Mac).</Alert>}
        </>
      ) : (
        <Loaded query={status} label="Loading your calendar link…">
          {(feed) =>
            feed.exists ? (
              <p>
                You created a calendar link on {formatDateTime(feed.createdAt!)}. For your privacy it is shown only once; replace it to get a new one (the old
                link then stops working).
              </p>
            ) : (
              <p>You have no calendar link yet.</p>
            )
          }
        </Loaded>
      )}
      <div>
        <button type="button" className="button-secondary" disabled={replacing.isPending} onClick={replace}>
          {replacing.isPending ? 'Creating…' : status.data?.exists || created ? 'Replace the link' : 'Create a calendar link'}
        </button>
      </div>
    </div>
  );
}

function InvitationSwitch() {
  const mail = useSettings()?.mailConfigured;
  const settings = useCalendarSettings();
  const saving = useSaveCalendarSettings();
  // What the person asked for, set in the click itself: a controlled checkbox whose value waited
  // for the mutation's state would be put back by React for a moment.
  const [asked, setAsked] = useState<boolean>();
  const failure = errorText(saving.error);
  return (
    <Loaded query={settings} label="Loading your calendar settings…">
      {(current) => (
        <div className="stack">
          {failure && <Alert kind="error">{failure}</Alert>}
          {/* Without a mail server nothing is mailed: the switch shows that, and keeps the person's choice for later (docs/configuration.md#mail). */}
          <Checkbox
            label="Mail me a calendar invitation when I book, change or cancel a reservation"
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
              This Deskbook sends no mail: no mail server is set up. Use the calendar link above instead, or ask an admin to set up mail.
            </p>
          )}
        </div>
      )}
    </Loaded>
  );
}
