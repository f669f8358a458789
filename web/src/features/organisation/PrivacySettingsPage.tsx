import { Alert, Checkbox, Loaded, PageHeader } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { errorText } from '../../lib/problems.js';
import { useOrganisationSettings, useSaveOrganisationSettings } from './queries.js';

const MODES = [
  { value: 'nobody', label: 'Nobody', text: 'Colleagues see only that a desk is booked (the default).' },
  { value: 'teams', label: 'My teams', text: 'Colleagues see the names of the people who share a team with them.' },
  { value: 'everyone', label: 'Everyone', text: 'Every colleague sees names; so can the lobby displays.' },
] as const;

/** Admins: what colleagues see of each other, and works-council mode (docs/people.md#the-organisations-settings). */
export function PrivacySettingsPage() {
  useTitle('Privacy');
  const settings = useOrganisationSettings();
  const saving = useSaveOrganisationSettings();
  const failure = errorText(saving.error, 'The privacy settings');
  return (
    <div className="page page-narrow">
      <PageHeader title="Privacy" />
      {failure && <Alert kind="error">{failure}</Alert>}
      {saving.isSuccess && <Alert kind="success">Saved. Every page shows it from now on.</Alert>}
      <Loaded query={settings} label="Loading the privacy settings…">
        {(current) => (
          <>
            <section className="panel">
              <fieldset>
                <legend>Who sees whose name on bookings</legend>
                {MODES.map((mode) => (
                  <label key={mode.value} className="checkbox">
                    <input
                      type="radio"
                      name="nameVisibility"
                      value={mode.value}
                      checked={current.nameVisibility === mode.value}
                      disabled={saving.isPending}
                      onChange={() => saving.mutate({ body: { nameVisibility: mode.value } })}
                    />
                    <span>
                      <strong>{mode.label}</strong>: {mode.text}
                    </span>
                  </label>
                ))}
              </fieldset>
              <p className="muted">
                Administrators always see names, for example on the today's list used for evacuations. People may hide their own bookings.
              </p>
            </section>
            <section className="panel" aria-labelledby="council-heading">
              <h2 id="council-heading">Works-council mode</h2>
              <Checkbox
                label="Attendance as aggregates only: no one's check-ins or no-shows are shown per person, administrators included"
                checked={current.worksCouncilMode}
                disabled={saving.isPending}
                onChange={(event) => saving.mutate({ body: { worksCouncilMode: event.target.checked } })}
              />
            </section>
          </>
        )}
      </Loaded>
    </div>
  );
}
