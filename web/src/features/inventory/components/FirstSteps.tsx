import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui.js';
import { errorText } from '../../../lib/problems.js';
import { browserZone } from '../../../lib/time.js';
import { Link, navigate } from '../../../router.js';
import { mark, withElements } from '../../../lib/rich.js';
import { useLoadSampleData } from '../queries.js';
import '../styles.css';

/**
 * What "Find a desk" shows while the install has no office (docs/behaviour.md#an-empty-install):
 * an admin gets the first steps and the sample office; anyone else a sentence that says why there
 * is nothing to book.
 */
export function NoOffices({ admin }: { admin: boolean }) {
  const { t } = useTranslation('inventory');
  if (!admin) {
    return (
      <section className="panel" aria-labelledby="no-offices-heading">
        <h2 id="no-offices-heading">{t('firstSteps.noOfficesHeading')}</h2>
        <p>{t('firstSteps.noOffices')}</p>
      </section>
    );
  }
  return <FirstSteps />;
}

function FirstSteps() {
  const { t } = useTranslation('inventory');
  const loading = useLoadSampleData((loaded) => navigate(`/admin/departments/${loaded.id}`));
  const failure = errorText(loading.error);
  return (
    <section className="panel first-steps" aria-labelledby="first-steps-heading">
      <h2 id="first-steps-heading">{t('firstSteps.heading')}</h2>
      <p>{t('firstSteps.intro')}</p>
      <ol className="first-steps-list">
        <li>{withElements(t('firstSteps.create', { link: mark('link') }), { link: <Link to="/admin/departments">{t('firstSteps.createLink')}</Link> })}</li>
        <li>{t('firstSteps.rooms')}</li>
        <li>{t('firstSteps.plan')}</li>
        <li>{withElements(t('firstSteps.invite', { link: mark('link') }), { link: <Link to="/admin/users">{t('firstSteps.inviteLink')}</Link> })}</li>
        <li>{withElements(t('firstSteps.profile', { link: mark('link') }), { link: <Link to="/profile">{t('firstSteps.profileLink')}</Link> })}</li>
      </ol>
      <p>{t('firstSteps.sample')}</p>
      {failure && <Alert kind="error">{failure}</Alert>}
      <div>
        <button type="button" className="button-secondary" disabled={loading.isPending} onClick={() => loading.mutate(browserZone())}>
          {loading.isPending ? t('firstSteps.adding') : t('firstSteps.add')}
        </button>
      </div>
    </section>
  );
}
