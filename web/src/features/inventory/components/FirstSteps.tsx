import { Alert } from '../../../components/ui.js';
import { errorText } from '../../../lib/problems.js';
import { browserZone } from '../../../lib/time.js';
import { Link, navigate } from '../../../router.js';
import { useLoadSampleData } from '../queries.js';
import '../styles.css';

/**
 * What "Find a desk" shows while the install has no office (docs/behaviour.md#an-empty-install):
 * an admin gets the first steps and the sample office; anyone else a sentence that says why there
 * is nothing to book.
 */
export function NoOffices({ admin }: { admin: boolean }) {
  if (!admin) {
    return (
      <section className="panel" aria-labelledby="no-offices-heading">
        <h2 id="no-offices-heading">No offices yet</h2>
        <p>No office has been set up here yet, so there are no desks to book. Your administrator adds the offices; come back once they have.</p>
      </section>
    );
  }
  return <FirstSteps />;
}

function FirstSteps() {
  const loading = useLoadSampleData((loaded) => navigate(`/admin/departments/${loaded.id}`));
  const failure = errorText(loading.error);
  return (
    <section className="panel first-steps" aria-labelledby="first-steps-heading">
      <h2 id="first-steps-heading">Set up Deskbook</h2>
      <p>There is no office yet, so there is nothing to book. These steps make it ready for everyone:</p>
      <ol className="first-steps-list">
        <li>
          <Link to="/admin/departments">Create an office</Link>: its location, building and floor, and its time zone.
        </li>
        <li>On the office's page, add its rooms, and the desks of each room (several at once, or from a CSV file).</li>
        <li>Upload a floor plan of the office and place its desks on it.</li>
        <li>
          <Link to="/admin/users">Invite people</Link>: add their e-mail addresses; they get a link to choose a password.
        </li>
        <li>
          Put your own name on <Link to="/profile">your profile</Link>.
        </li>
      </ol>
      <p>Or try it first with a sample office: two rooms and nine desks with equipment, which you can change or delete later.</p>
      {failure && <Alert kind="error">{failure}</Alert>}
      <div>
        <button type="button" className="button-secondary" disabled={loading.isPending} onClick={() => loading.mutate(browserZone())}>
          {loading.isPending ? 'Adding the sample office…' : 'Add a sample office'}
        </button>
      </div>
    </section>
  );
}
