import { useTranslation } from 'react-i18next';
import { EmptyState, Loaded } from '../../components/ui.js';
import { useMyTeams } from './queries.js';
import './styles.css';

/** "My teams" on the profile: the teams the person is in, with their role. */
export function MyTeamsSection() {
  const { t } = useTranslation('people');
  const teams = useMyTeams();
  return (
    <section className="panel" aria-labelledby="teams-heading">
      <h2 id="teams-heading">{t('myTeams.heading')}</h2>
      <Loaded query={teams} label={t('myTeams.loading')}>
        {(mine) =>
          mine.length === 0 ? (
            <EmptyState>{t('myTeams.none')}</EmptyState>
          ) : (
            <ul className="team-list">
              {mine.map((team) => (
                <li key={team.id}>
                  <span>
                    <strong>{team.name}</strong>
                    {team.description && <span className="muted"> — {team.description}</span>}
                  </span>
                  {team.role === 'MANAGER' && <span className="badge badge-accent">{t('myTeams.manager')}</span>}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
