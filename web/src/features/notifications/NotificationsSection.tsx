import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../api/settings.js';
import { Alert, Loaded } from '../../components/ui.js';
import { errorText } from '../../lib/problems.js';
import { translate } from '../../lib/translate.js';
import { browserSubscription, pushSupport, PushRefused, subscribeBrowser, unsubscribeBrowser, type PushSupport } from './push.js';
import { useNotificationPreferences, usePushKey, usePushSubscriptions, useSaveNotificationPreferences, useSubscribe, useUnsubscribe } from './queries.js';
import './styles.css';

/** The events as people read them (docs/notifications.md#events). */
const EVENT_KEYS: Record<string, string> = {
  'check-in-open': 'checkInOpen',
  released: 'released',
  'approval-decided': 'approvalDecided',
  'booked-by-others': 'bookedByOthers',
};

/** An event's label in the language in use (an unknown event shows as its name). */
const eventLabel = (event: string): string => (EVENT_KEYS[event] ? translate(`profile:notifications.events.${EVENT_KEYS[event]}`) : event);

/** The profile page's "Notifications" section: push in this browser, and the switches per event and channel (docs/notifications.md). */
export function NotificationsSection() {
  const { t } = useTranslation('profile');
  return (
    <section className="panel" aria-labelledby="notifications-heading">
      <h2 id="notifications-heading">{t('notifications.heading')}</h2>
      <p>{t('notifications.intro')}</p>
      <PushInThisBrowser />
      <Switches />
    </section>
  );
}

function PushInThisBrowser() {
  const { t } = useTranslation('profile');
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
      <h3>{t('notifications.pushHeading')}</h3>
      {failure && <Alert kind="error">{failure}</Alert>}
      {support === 'unsupported' ? (
        <Alert kind="info">{t('notifications.unsupported')}</Alert>
      ) : support === 'denied' ? (
        <Alert kind="info">{t('notifications.denied')}</Alert>
      ) : (
        <Loaded query={list} label={t('notifications.loadingBrowsers')}>
          {() => (
            <>
              <p role="status">{mine ? t('notifications.isOn') : t('notifications.isOff')}</p>
              <div>
                {mine ? (
                  <button type="button" className="button-secondary" disabled={busy} onClick={() => void turnOff()}>
                    {busy ? t('notifications.turningOff') : t('notifications.turnOff')}
                  </button>
                ) : (
                  <button type="button" className="button-primary" disabled={busy || endpoint === undefined || !key.data} onClick={() => void turnOn()}>
                    {busy ? t('notifications.turningOn') : t('notifications.turnOn')}
                  </button>
                )}
              </div>
            </>
          )}
        </Loaded>
      )}
      {others > 0 && <p className="muted">{t('notifications.others', { count: others })}</p>}
    </div>
  );
}

function Switches() {
  const { t } = useTranslation('profile');
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
      <h3 id="notification-switches-heading">{t('notifications.switchesHeading')}</h3>
      {failure && <Alert kind="error">{failure}</Alert>}
      <Loaded query={preferences} label={t('notifications.loadingSettings')}>
        {(current) => (
          <table className="notification-switches" aria-labelledby="notification-switches-heading">
            <thead>
              <tr>
                <th scope="col">{t('notifications.when')}</th>
                <th scope="col">{t('notifications.push')}</th>
                <th scope="col">{t('notifications.mail')}</th>
              </tr>
            </thead>
            <tbody>
              {current.events.map((entry) => {
                const label = eventLabel(entry.event);
                const push = asked[`${entry.event} push`] ?? entry.push;
                const mail = asked[`${entry.event} mail`] ?? entry.mail;
                return (
                  <tr key={entry.event}>
                    <th scope="row">{label}</th>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={t('notifications.pushFor', { event: label })}
                        checked={push}
                        onChange={(event) => change(entry.event, 'push', event.currentTarget.checked)}
                      />
                    </td>
                    <td>
                      {mail === null ? (
                        <span className="muted">{t('notifications.noMailForEvent')}</span>
                      ) : (
                        <input
                          type="checkbox"
                          aria-label={t('notifications.mailFor', { event: label })}
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
        {t('notifications.pushHint')}
        {mailConfigured === false && ` ${t('notifications.noMailServer')}`}
      </p>
    </div>
  );
}
