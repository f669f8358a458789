import { EmptyState, Loaded } from '../../components/ui.js';
import { useMyTeams } from './queries.js';
import './styles.css';

/** "My teams" on the profile: the teams the person is in, with their role. */
export function MyTeamsSection() {
  const teams = useMyTeams();
  return (
    <section className="panel" aria-labelledby="teams-heading">
      <h2 id="teams-heading">Your teams</h2>
      <Loaded query={teams} label="Loading your teams…">
        {(mine) =>
          mine.length === 0 ? (
            <EmptyState>You are in no team.</EmptyState>
          ) : (
            <ul className="team-list">
              {mine.map((team) => (
                <li key={team.id}>
                  <span>
                    <strong>{team.name}</strong>
                    {team.description && <span className="muted"> — {team.description}</span>}
                  </span>
                  {team.role === 'MANAGER' && <span className="badge badge-accent">Manager</span>}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
