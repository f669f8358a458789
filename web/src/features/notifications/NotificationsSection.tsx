import { useEffect, useState } from 'react';
import { useSettings } from '../../api/settings.js';
import { Alert, Loaded } from '../../components/ui.js';
import { errorText } from '../../lib/problems.js';
import { browserSubscription, pushSupport, PushRefused, subscribeBrowser, unsubscribeBrowser, type PushSupport } from './push.js';
import { useNotificationPreferences, usePushKey, usePushSubscriptions, useSaveNotificationPreferences, useSubscribe, useUnsubscribe } from './queries.js';
import './styles.css';

/** The events as people read them (docs/notifications.md#events). */
const EVENT_LABELS: Record<string, string> = {
  'check-in-open': 'Check-in of my booking opened',
  released: 'My desk was released because nobody checked in',
  'approval-decided': 'My booking request was approved, rejected or expired',
  'booked-by-others': 'Someone else booked, changed or cancelled for me',
};

/** The profile page's "Notifications" section: push in this browser, and the switches per event and channel (docs/notifications.md). */
export function NotificationsSection() {
  return (
    <section className="panel" aria-labelledby="notifications-heading">
      <h2 id="notifications-heading">Notifications</h2>
      <p>Deskbook tells you about your bookings by push notification in the browsers where you turn it on, and by mail. Choose what reaches you how.</p>
      <PushInThisBrowser />
      <Switches />
    </section>
  );
}

function PushInThisBrowser() {
  const key = usePushKey();
  const list = usePushSubscriptions();
  const subscribing = useSubscribe();
  const unsubscribing = useUnsubscribe();
  const [support, setSupport] = useState<PushSupport>(pushSupport);
  /** This browser's endpoint: undefined while it is looked up, null when it has none. */
  const [endpoint, setEndpoint] = useState<string | null>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();

  useEffect(() => {
    let live = true;
    browserSubscription().then(
      (subscription) => live && setEndpoint(subscription?.endpoint ?? null),
      () => live && setEndpoint(null),
    );
    return () => {
      live = false;
    };
  }, []);

  const mine = list.data?.find((subscription) => subscription.endpoint === endpoint);
  const others = (list.data?.length ?? 0) - (mine ? 1 : 0);
  const failure = problem ?? errorText(subscribing.error ?? unsubscribing.error);

  const turnOn = async () => {
    if (!key.data) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const subscription = await subscribeBrowser(key.data.publicKey);
      await subscribing.mutateAsync({ body: subscription });
      setEndpoint(subscription.endpoint);
    } catch (error) {
      if (error instanceof PushRefused || error instanceof DOMException) setProblem(error.message);
      setSupport(pushSupport());
    } finally {
      setBusy(false);
    }
  };
  const turnOff = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      if (mine) await unsubscribing.mutateAsync({ params: { path: { id: mine.id } } });
      await unsubscribeBrowser();
      setEndpoint(null);
    } catch (error) {
      if (error instanceof DOMException) setProblem(error.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack push-control">
      <h3>Push in this browser</h3>
      {failure && <Alert kind="error">{failure}</Alert>}
      {support === 'unsupported' ? (
        <Alert kind="info">
          This browser cannot receive push notifications from this address: push needs a browser that supports it and a secure (https) address.
        </Alert>
      ) : support === 'denied' ? (
        <Alert kind="info">
          Notifications are blocked for this site in this browser. Allow them in the browser&rsquo;s site settings, then reload this page.
        </Alert>
      ) : (
        <Loaded query={list} label="Loading your browsers…">
          {() => (
            <>
              <p role="status">{mine ? 'Push is on in this browser.' : 'Push is off in this browser.'}</p>
              <div>
                {mine ? (
                  <button type="button" className="button-secondary" disabled={busy} onClick={() => void turnOff()}>
                    {busy ? 'Turning off…' : 'Turn push off in this browser'}
                  </button>
                ) : (
                  <button type="button" className="button-primary" disabled={busy || endpoint === undefined || !key.data} onClick={() => void turnOn()}>
                    {busy ? 'Turning on…' : 'Turn push on in this browser'}
                  </button>
                )}
              </div>
            </>
          )}
        </Loaded>
      )}
      {others > 0 && (
        <p className="muted">
          Push is also on in {others} other {others === 1 ? 'browser' : 'browsers'} of yours; turn it off there, in each browser.
        </p>
      )}
    </div>
  );
}

function Switches() {
  const mailConfigured = useSettings()?.mailConfigured;
  const preferences = useNotificationPreferences();
  const saving = useSaveNotificationPreferences();
  // What the person asked for, set in the click itself (as the calendar switch does): the box does not jump back while saving.
  const [asked, setAsked] = useState<Record<string, boolean>>({});
  const failure = errorText(saving.error);

  const change = (event: string, channel: 'push' | 'mail', value: boolean) => {
    const name = `${event} ${channel}`;
    setAsked((current) => ({ ...current, [name]: value }));
    saving.mutate(
      { body: { events: [{ event: event as 'released', [channel]: value }] } },
      {
        onSettled: () =>
          setAsked((current) => {
            const { [name]: _done, ...rest } = current;
            return rest;
          }),
      },
    );
  };

  return (
    <div className="stack">
      <h3 id="notification-switches-heading">What to tell you, and how</h3>
      {failure && <Alert kind="error">{failure}</Alert>}
      <Loaded query={preferences} label="Loading your notification settings…">
        {(current) => (
          <table className="notification-switches" aria-labelledby="notification-switches-heading">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Push</th>
                <th scope="col">Mail</th>
              </tr>
            </thead>
            <tbody>
              {current.events.map((entry) => {
                const label = EVENT_LABELS[entry.event] ?? entry.event;
                const push = asked[`${entry.event} push`] ?? entry.push;
                const mail = asked[`${entry.event} mail`] ?? entry.mail;
                return (
                  <tr key={entry.event}>
                    <th scope="row">{label}</th>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Push: ${label}`}
                        checked={push}
                        onChange={(event) => change(entry.event, 'push', event.currentTarget.checked)}
                      />
                    </td>
                    <td>
                      {mail === null ? (
                        <span className="muted">No mail</span>
                      ) : (
                        <input
                          type="checkbox"
                          aria-label={`Mail: ${label}`}
                          checked={mailConfigured === false ? false : mail}
                          disabled={mailConfigured === false}
                          onChange={(event) => change(entry.event, 'mail', event.currentTarget.checked)}
                        />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </Loaded>
      <p className="field-hint">
        Push reaches only the browsers where you turned it on.
        {mailConfigured === false && ' This Deskbook sends no mail: no mail server is set up.'}
      </p>
    </div>
  );
}
