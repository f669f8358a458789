import { useState } from 'react';
import { Alert, EmptyState, Loaded, PageHeader, TextField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { errorText } from '../../lib/problems.js';
import { formatDateTime } from '../../lib/time.js';
import { OfficePicker, useFirstOffice } from '../inventory/OfficePicker.js';
import { useCreateDisplay, useDisplays, useRevokeDisplay } from './queries.js';

/** Admins: the lobby displays of an office, their creation (the address shown once) and revocation (docs/people.md#the-lobby-display). */
export function DisplaysPage() {
  useTitle('Lobby displays');
  const first = useFirstOffice();
  const [chosen, setChosen] = useState('');
  const departmentId = chosen || first;
  const [name, setName] = useState('');
  const displays = useDisplays(departmentId);
  const creating = useCreateDisplay();
  const revoking = useRevokeDisplay();
  const failure = errorText(creating.error ?? revoking.error, 'This display');
  return (
    <div className="page page-narrow">
      <PageHeader title="Lobby displays" />
      <p className="muted">
        A display shows an office's desks, free or booked, without signing in. Names appear only when the organisation shows them to everyone.
      </p>
      <OfficePicker value={departmentId} onChange={setChosen} />
      {failure && <Alert kind="error">{failure}</Alert>}
      {creating.data && (
        <Alert kind="success">
          Open this address on the display; it is shown only now: <code className="break">{creating.data.url}</code>
        </Alert>
      )}
      {departmentId && (
        <>
          <section className="panel" aria-labelledby="displays-heading">
            <h2 id="displays-heading">Displays of this office</h2>
            <Loaded query={displays} label="Loading the displays…">
              {(list) =>
                list.length === 0 ? (
                  <EmptyState>This office has no display.</EmptyState>
                ) : (
                  <ul className="delegate-list">
                    {list.map((display) => (
                      <li key={display.id}>
                        <span className="break">
                          {display.name} <span className="muted">(since {formatDateTime(display.createdAt)})</span>
                        </span>
                        <button
                          type="button"
                          className="button-secondary button-small"
                          disabled={revoking.isPending}
                          onClick={() => revoking.mutate({ params: { path: { id: display.id } } })}
                          aria-label={`Revoke the display ${display.name}`}
                        >
                          Revoke
                        </button>
                      </li>
                    ))}
                  </ul>
                )
              }
            </Loaded>
          </section>
          <form
            className="panel"
            aria-labelledby="new-display-heading"
            onSubmit={(event) => {
              event.preventDefault();
              if (name.trim()) creating.mutate({ params: { path: { departmentId } }, body: { name: name.trim() } }, { onSuccess: () => setName('') });
            }}
          >
            <h2 id="new-display-heading">New display</h2>
            <TextField
              label="Where it hangs"
              value={name}
              maxLength={100}
              onChange={(event) => setName(event.target.value)}
              placeholder="Lobby, ground floor"
            />
            <button type="submit" disabled={creating.isPending || !name.trim()}>
              Create display
            </button>
          </form>
        </>
      )}
    </div>
  );
}
