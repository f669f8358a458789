import { useTranslation } from 'react-i18next';
import { Link } from '../../../router.js';
import '../styles.css';

export function Breadcrumbs({ trail }: { trail: { to?: string; label: string }[] }) {
  const { t } = useTranslation('inventory');
  return (
    <nav aria-label={t('breadcrumb')} className="breadcrumbs">
      <ol>
        {trail.map((step) => (
          <li key={step.label}>{step.to ? <Link to={step.to}>{step.label}</Link> : <span aria-current="page">{step.label}</span>}</li>
        ))}
      </ol>
    </nav>
  );
}
